"""The Git Data and Contents endpoints of the fake GitHub API: refs, commits, trees, blobs.

Objects get real git ids (SHA-1 of the object as git stores it), so a tree with the
same files always has the same sha, as on GitHub. What each endpoint answers follows
GitHub's REST documentation, with the error bodies the live API gives
(research notes: /work/research/two-runs/GITDATA.md):

- ``GET git/ref/{ref}``: 404 for a ref that does not exist, 409 "Git Repository is
  empty." when the repository has no commit yet;
- ``GET git/matching-refs/{ref}``: every ref *starting with* ``refs/{ref}`` (a list,
  possibly empty);
- ``POST git/refs``: 201; 422 "Reference already exists", "Object does not exist",
  "Reference update failed" (a branch pointed at a non-commit), a name not of the form
  ``refs/x/y``; 409 on an empty repository;
- ``PATCH git/refs/{ref}``: 422 "Update is not a fast forward" unless ``force``,
  "Reference does not exist", "Object does not exist", "Object is not a commit";
- ``POST/GET git/blobs`` (the answer's base64 wrapped every 60 characters),
  ``POST/GET git/trees`` (``base_tree``, nested paths, ``sha: null`` deletes and is
  an error for a path that does not exist, ``recursive`` on whatever its value),
  ``POST/GET git/commits`` (parents in order; no parents: a root commit);
- ``GET commits/{ref}``: the commit (its ``sha``, ``commit``, ``parents``) a full or
  unique short sha, a branch or a tag names (an annotated tag peeled); 404 for a ref
  that names no commit, 409 on an empty repository;
- ``GET contents/{path}?ref=``: a file (base64 ``content`` up to 1 MB; from 1 MB on,
  ``content`` empty and ``encoding: "none"``), a directory (a list), 404 for a missing
  path or ref; the default branch without ``ref``.

Writes with a read-only token (a fork's) are refused with 403 by `FakeGitHub._handle`.
The messages of errors the documentation names only by status (deleting a missing
path, a missing tree or parent) are the fake's own wording.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from tests.fakes.github_wire import Call, error_answer

__all__ = ["GIT_ROUTES", "GIT_WRITE_ROUTES", "GitData"]

Answer = tuple[int, dict[str, str], Any]
CONTENTS_JSON_LIMIT = 1024 * 1024  # the contents API's base64 `content` up to 1 MB
EMPTY = "Git Repository is empty."
_REPO = r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)"

GIT_ROUTES: tuple[tuple[str, str, str], ...] = (
    ("GET", _REPO + r"/git/ref/(?P<ref>.+)", "git_get_ref"),
    ("GET", _REPO + r"/git/matching-refs/(?P<ref>.*)", "git_matching_refs"),
    ("POST", _REPO + r"/git/refs", "git_create_ref"),
    ("PATCH", _REPO + r"/git/refs/(?P<ref>.+)", "git_update_ref"),
    ("POST", _REPO + r"/git/blobs", "git_create_blob"),
    ("GET", _REPO + r"/git/blobs/(?P<sha>[0-9a-f]{40})", "git_get_blob"),
    ("POST", _REPO + r"/git/trees", "git_create_tree"),
    ("GET", _REPO + r"/git/trees/(?P<sha>[^/]+)", "git_get_tree"),
    ("POST", _REPO + r"/git/commits", "git_create_commit"),
    ("GET", _REPO + r"/git/commits/(?P<sha>[0-9a-f]{40})", "git_get_commit"),
    # not ``commits/{ref}/status(es)``: those are the statuses' routes
    ("GET", _REPO + r"/commits/(?P<ref>(?!.*/status(?:es)?$).+)", "git_get_ref_commit"),
    ("GET", _REPO + r"/contents/(?P<path>.*)", "get_contents"),
    ("GET", _REPO + r"/contents", "get_contents"),
)
GIT_WRITE_ROUTES = frozenset(
    {
        "git_create_ref",
        "git_update_ref",
        "git_create_blob",
        "git_create_tree",
        "git_create_commit",
    }
)
_FILE_MODES = {"100644", "100755", "120000"}


@dataclass
class _Entry:
    mode: str
    type: str
    sha: str


@dataclass
class GitData:
    """A repository's objects and refs, as the fake serves them."""

    api: str = ""  # the API root of the repository, for `url` fields
    default_branch: str = "main"
    blobs: dict[str, bytes] = field(default_factory=dict)
    trees: dict[str, dict[str, _Entry]] = field(default_factory=dict)
    commits: dict[str, dict[str, Any]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    tick: int = 0

    # -- scripting (tests) ---------------------------------------------------------------
    def commit_files(
        self, branch: str, files: dict[str, bytes], message: str = "work"
    ) -> str:
        """Commit ``files`` (the whole tree) on top of ``branch``; create it if new."""
        with self.lock:
            parent = self.refs.get(f"refs/heads/{branch}")
            flat = {p: _Entry("100644", "blob", self._blob(c)) for p, c in files.items()}
            tree = self._build(flat)
            sha = self._commit(message, tree, [parent] if parent else [])
            self.refs[f"refs/heads/{branch}"] = sha
            return sha

    def tag(self, name: str, sha: str) -> None:
        """A lightweight tag ``refs/tags/<name>`` on ``sha``."""
        with self.lock:
            self.refs[f"refs/tags/{name}"] = sha

    def merge(self, branch: str, other: str, message: str = "merge") -> str:
        """A merge commit on ``branch``: first parent its head, second ``other``."""
        with self.lock:
            head = self.refs[f"refs/heads/{branch}"]
            tree = self.commits[head]["tree"]
            sha = self._commit(message, tree, [head, other])
            self.refs[f"refs/heads/{branch}"] = sha
            return sha

    def files(self, ref: str) -> dict[str, bytes]:
        """Every file of a branch (or commit) as path -> bytes."""
        with self.lock:
            sha = self._resolve(ref)
            assert sha is not None, ref
            return {
                p: self.blobs[e.sha]
                for p, e in self._flatten(self.commits[sha]["tree"]).items()
            }

    def first_parents(self, ref: str) -> list[str]:
        """The first-parent chain from a branch (or commit), newest first."""
        with self.lock:
            sha = self._resolve(ref)
            out = []
            while sha is not None:
                out.append(sha)
                parents = self.commits[sha]["parents"]
                sha = parents[0] if parents else None
            return out

    # -- objects -------------------------------------------------------------------------
    def _now(self) -> str:
        self.tick += 1
        return f"2026-11-29T13:{self.tick // 60 % 60:02d}:{self.tick % 60:02d}Z"

    def _blob(self, content: bytes) -> str:
        sha = hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()  # noqa: S324
        self.blobs[sha] = content
        return sha

    def _tree(self, entries: dict[str, _Entry]) -> str:
        def key(name: str) -> bytes:  # git sorts a tree's names as if trees end in "/"
            return (name + "/" if entries[name].type == "tree" else name).encode()

        body = b"".join(
            f"{int(entries[n].mode, 8):o} {n}".encode()
            + b"\0"
            + bytes.fromhex(entries[n].sha)
            for n in sorted(entries, key=key)
        )
        sha = hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()  # noqa: S324
        self.trees[sha] = dict(entries)
        return sha

    def _commit(self, message: str, tree: str, parents: list[str]) -> str:
        when = self._now()
        person = {
            "name": "github-actions[bot]",
            "email": "41898282+github-actions[bot]@users.noreply.github.com",
            "date": when,
        }
        text = f"tree {tree}\n" + "".join(f"parent {p}\n" for p in parents)
        text += f"author {person['name']} {when}\ncommitter {person['name']} {when}\n\n"
        raw = (text + message).encode()
        sha = hashlib.sha1(b"commit %d\0" % len(raw) + raw).hexdigest()  # noqa: S324
        self.commits[sha] = {
            "tree": tree,
            "parents": list(parents),
            "message": message,
            "author": person,
            "committer": person,
        }
        return sha

    def _flatten(self, tree: str, prefix: str = "") -> dict[str, _Entry]:
        out: dict[str, _Entry] = {}
        for name, entry in self.trees[tree].items():
            if entry.type == "tree":
                out.update(self._flatten(entry.sha, f"{prefix}{name}/"))
            else:
                out[prefix + name] = entry
        return out

    def _build(self, flat: dict[str, _Entry]) -> str:
        top: dict[str, _Entry] = {}
        subdirs: dict[str, dict[str, _Entry]] = {}
        for path, entry in flat.items():
            head, sep, rest = path.partition("/")
            if sep:
                subdirs.setdefault(head, {})[rest] = entry
            else:
                top[path] = entry
        for name, sub in subdirs.items():
            top[name] = _Entry("040000", "tree", self._build(sub))
        return self._tree(top)

    def _resolve(self, ref: str) -> str | None:
        if ref in self.commits:
            return ref
        for full in (f"refs/heads/{ref}", f"refs/tags/{ref}", f"refs/{ref}", ref):
            if full in self.refs:
                return self.refs[full]
        return None

    def _ref_json(self, ref: str) -> dict[str, Any]:
        sha = self.refs[ref]
        kind = "commit" if sha in self.commits else "tree" if sha in self.trees else "blob"
        return {
            "ref": ref,
            "node_id": "REF_" + hashlib.sha1(ref.encode()).hexdigest()[:16],  # noqa: S324
            "url": f"{self.api}/git/{ref}",
            "object": {"type": kind, "sha": sha, "url": f"{self.api}/git/{kind}s/{sha}"},
        }

    def _commit_json(self, sha: str) -> dict[str, Any]:
        c = self.commits[sha]
        return {
            "sha": sha,
            "node_id": "C_" + sha[:16],
            "url": f"{self.api}/git/commits/{sha}",
            "html_url": f"https://github.com/commit/{sha}",
            "author": c["author"],
            "committer": c["committer"],
            "message": c["message"],
            "tree": {"sha": c["tree"], "url": f"{self.api}/git/trees/{c['tree']}"},
            "parents": [
                {"sha": p, "url": f"{self.api}/git/commits/{p}", "html_url": ""}
                for p in c["parents"]
            ],
            "verification": {"verified": False, "reason": "unsigned"},
        }

    def _is_ancestor(self, old: str, new: str) -> bool:
        seen, todo = set(), [new]
        while todo:
            sha = todo.pop()
            if sha == old:
                return True
            if sha not in seen:
                seen.add(sha)
                todo.extend(self.commits[sha]["parents"])
        return False

    # -- endpoints -------------------------------------------------------------------------
    def do_git_get_ref(self, call: Call) -> Answer:
        if not self.refs:
            return error_answer(409, EMPTY)
        ref = "refs/" + unquote(call.args["ref"])
        if ref not in self.refs:
            return error_answer(404, "Not Found")
        return 200, {}, self._ref_json(ref)

    def do_git_matching_refs(self, call: Call) -> Answer:
        if not self.refs:
            return error_answer(409, EMPTY)
        prefix = "refs/" + unquote(call.args.get("ref", ""))
        return (
            200,
            {},
            [self._ref_json(r) for r in sorted(self.refs) if r.startswith(prefix)],
        )

    def do_git_create_ref(self, call: Call) -> Answer:
        body = call.body if isinstance(call.body, dict) else {}
        ref, sha = body.get("ref"), body.get("sha")
        if not isinstance(ref, str) or not ref.startswith("refs/") or ref.count("/") < 2:
            return error_answer(
                422,
                "Reference name is invalid: it must start with 'refs' and have at "
                "least two slashes.",
            )
        if not self.refs:
            return error_answer(409, EMPTY)
        if ref in self.refs:
            return error_answer(422, "Reference already exists")
        if not isinstance(sha, str) or not (
            sha in self.commits or sha in self.trees or sha in self.blobs
        ):
            return error_answer(422, "Object does not exist")
        if ref.startswith("refs/heads/") and sha not in self.commits:
            return error_answer(422, "Reference update failed")
        self.refs[ref] = sha
        return 201, {"Location": f"{self.api}/git/{ref}"}, self._ref_json(ref)

    def do_git_update_ref(self, call: Call) -> Answer:
        body = call.body if isinstance(call.body, dict) else {}
        ref, sha = "refs/" + unquote(call.args["ref"]), body.get("sha")
        if ref not in self.refs:
            return error_answer(422, "Reference does not exist")
        if not isinstance(sha, str) or not (
            sha in self.commits or sha in self.trees or sha in self.blobs
        ):
            return error_answer(422, "Object does not exist")
        if sha not in self.commits:
            return error_answer(422, "Object is not a commit")
        if body.get("force") is not True and not self._is_ancestor(self.refs[ref], sha):
            return error_answer(422, "Update is not a fast forward")
        self.refs[ref] = sha
        return 200, {}, self._ref_json(ref)

    def do_git_create_blob(self, call: Call) -> Answer:
        body = call.body if isinstance(call.body, dict) else {}
        content, encoding = body.get("content"), body.get("encoding", "utf-8")
        if not self.refs:
            return error_answer(409, EMPTY)
        if not isinstance(content, str) or encoding not in ("utf-8", "base64"):
            return error_answer(422, 'Invalid request.\n\n"content" wasn\'t supplied.')
        try:
            data = (
                base64.b64decode(content, validate=False)
                if encoding == "base64"
                else (content.encode())
            )
        except ValueError:
            return error_answer(422, "Invalid request.\n\nContent is not valid Base64.")
        sha = self._blob(data)
        return 201, {}, {"sha": sha, "url": f"{self.api}/git/blobs/{sha}"}

    def do_git_get_blob(self, call: Call) -> Answer:
        sha = call.args["sha"]
        if sha not in self.blobs:
            return error_answer(404, "Not Found")
        data = self.blobs[sha]
        return (
            200,
            {},
            {
                "sha": sha,
                "node_id": "B_" + sha[:16],
                "size": len(data),
                "url": f"{self.api}/git/blobs/{sha}",
                "content": _wrapped_base64(data),
                "encoding": "base64",
            },
        )

    def do_git_get_tree(self, call: Call) -> Answer:
        sha = call.args["sha"]
        if sha not in self.trees:
            resolved = self._resolve(unquote(sha))  # a tree-ish: a branch or a commit
            if resolved is None or resolved not in self.commits:
                return error_answer(404, "Not Found")
            sha = self.commits[resolved]["tree"]
        recursive = "recursive" in call.query  # any value turns recursion on
        return (
            200,
            {},
            {
                "sha": sha,
                "url": f"{self.api}/git/trees/{sha}",
                "tree": self._listing(sha, "", recursive=recursive),
                "truncated": False,
            },
        )

    def _listing(self, tree: str, prefix: str, *, recursive: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in sorted(self.trees[tree]):
            e = self.trees[tree][name]
            item: dict[str, Any] = {
                "path": prefix + name,
                "mode": e.mode,
                "type": e.type,
                "sha": e.sha,
                "url": f"{self.api}/git/{e.type}s/{e.sha}",
            }
            if e.type == "blob":
                item["size"] = len(self.blobs[e.sha])
            out.append(item)
            if recursive and e.type == "tree":
                out.extend(self._listing(e.sha, f"{prefix}{name}/", recursive=True))
        return out

    def do_git_create_tree(self, call: Call) -> Answer:
        body = call.body if isinstance(call.body, dict) else {}
        if not self.refs:
            return error_answer(409, EMPTY)
        base, entries = body.get("base_tree"), body.get("tree")
        if not isinstance(entries, list):
            return error_answer(422, "Invalid tree info")
        flat: dict[str, _Entry] = {}
        if base is not None:
            if base not in self.trees:
                return error_answer(422, "Invalid tree info: base_tree does not exist")
            flat = self._flatten(base)
        for raw in entries:
            problem = self._apply(flat, raw)
            if problem:
                return error_answer(422, problem)
        sha = self._build(flat)
        return (
            201,
            {},
            {
                "sha": sha,
                "url": f"{self.api}/git/trees/{sha}",
                "tree": self._listing(sha, "", recursive=False),
                "truncated": False,
            },
        )

    def _apply(  # noqa: PLR0911 - one return per documented case of an entry
        self, flat: dict[str, _Entry], raw: Any
    ) -> str | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("path"), str):
            return "Invalid tree info: each entry needs a path"
        path, mode, kind = raw["path"].strip("/"), raw.get("mode"), raw.get("type")
        if "sha" in raw and "content" in raw:
            return f"Invalid tree info: {path}: give sha or content, not both"
        if "sha" in raw and raw["sha"] is None:
            under = [p for p in flat if p == path or p.startswith(path + "/")]
            if not under:
                return f"Invalid tree info: cannot delete {path}: no such path"
            for p in under:
                del flat[p]
            return None
        if "content" in raw and isinstance(raw["content"], str):
            flat[path] = _Entry(
                str(mode or "100644"), "blob", self._blob(raw["content"].encode())
            )
            return None
        sha = raw.get("sha")
        if kind == "tree" and mode == "040000" and sha in self.trees:
            for p in [p for p in flat if p.startswith(path + "/")]:
                del flat[p]
            for p, e in self._flatten(sha).items():
                flat[f"{path}/{p}"] = e
            return None
        if kind == "blob" and mode in _FILE_MODES and sha in self.blobs:
            flat[path] = _Entry(mode, "blob", sha)
            return None
        return f"Invalid tree info: {path}: unknown object {sha!r} or mode {mode!r}"

    def do_git_create_commit(self, call: Call) -> Answer:
        body = call.body if isinstance(call.body, dict) else {}
        if not self.refs:
            return error_answer(409, EMPTY)
        tree, parents = body.get("tree"), body.get("parents", [])
        if not isinstance(body.get("message"), str):
            return error_answer(422, 'Invalid request.\n\n"message" wasn\'t supplied.')
        if tree not in self.trees:
            return error_answer(422, "Tree SHA does not exist")
        if not isinstance(parents, list) or any(p not in self.commits for p in parents):
            return error_answer(422, "Parent SHA does not exist or is not a commit object")
        sha = self._commit(body["message"], tree, parents)
        return 201, {"Location": f"{self.api}/git/commits/{sha}"}, self._commit_json(sha)

    def do_git_get_commit(self, call: Call) -> Answer:
        sha = call.args["sha"]
        if sha not in self.commits:
            return error_answer(404, "Not Found")
        return 200, {}, self._commit_json(sha)

    def do_git_get_ref_commit(self, call: Call) -> Answer:
        if not self.refs:
            return error_answer(409, EMPTY)
        ref = unquote(call.args["ref"])
        sha = self._resolve(ref)
        if sha is None and 7 <= len(ref) < 40 and all(c in "0123456789abcdef" for c in ref):
            unique = [c for c in self.commits if c.startswith(ref)]
            sha = unique[0] if len(unique) == 1 else None
        if sha is None or sha not in self.commits:
            return error_answer(404, "Not Found")
        c = self._commit_json(sha)
        return (
            200,
            {},
            {
                "sha": sha,
                "node_id": c["node_id"],
                "commit": {k: c[k] for k in ("author", "committer", "message", "tree")},
                "url": f"{self.api}/commits/{sha}",
                "parents": [{"sha": p["sha"], "url": p["url"]} for p in c["parents"]],
            },
        )

    def do_get_contents(self, call: Call) -> Answer:
        if not self.refs:
            return error_answer(404, "This repository is empty.")
        ref = call.query.get("ref") or self.default_branch
        commit = self._resolve(ref)
        if commit is None or commit not in self.commits:
            return error_answer(404, f"No commit found for the ref {ref}")
        path = unquote(call.args.get("path", "")).strip("/")
        flat = self._flatten(self.commits[commit]["tree"])
        if path in flat:
            return 200, {}, self._file_json(path, flat[path], ref)
        under = sorted(
            {
                p[len(path) + 1 :].split("/")[0]
                for p in flat
                if not path or p.startswith(path + "/")
            }
        )
        if path and not under:
            return error_answer(404, "Not Found")
        listing = []
        for name in under:
            full = f"{path}/{name}" if path else name
            if full in flat:
                listing.append(self._file_json(full, flat[full], ref, content=False))
            else:
                listing.append(
                    {
                        "type": "dir",
                        "name": name,
                        "path": full,
                        "size": 0,
                        "sha": "",
                        "url": f"{self.api}/contents/{full}?ref={ref}",
                    }
                )
        return 200, {}, listing

    def _file_json(
        self, path: str, entry: _Entry, ref: str, *, content: bool = True
    ) -> dict[str, Any]:
        data = self.blobs[entry.sha]
        out: dict[str, Any] = {
            "type": "file",
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": entry.sha,
            "size": len(data),
            "url": f"{self.api}/contents/{path}?ref={ref}",
            "git_url": f"{self.api}/git/blobs/{entry.sha}",
            "download_url": f"https://raw.githubusercontent.com/{ref}/{path}",
        }
        if content:
            big = len(data) > CONTENTS_JSON_LIMIT
            out["encoding"] = "none" if big else "base64"
            out["content"] = "" if big else _wrapped_base64(data)
        return out


def _wrapped_base64(data: bytes) -> str:
    text = base64.b64encode(data).decode()
    return "".join(text[i : i + 60] + "\n" for i in range(0, len(text), 60))
