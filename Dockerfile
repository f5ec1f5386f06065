# The action's image. Users get it built on python:3.12-slim; the test suite builds it
# on a local Debian base (--build-arg BASE_IMAGE=..., see docs/releasing.md).
ARG BASE_IMAGE=python:3.12-slim
FROM ${BASE_IMAGE}

# The release workflow adds org.opencontainers.image.source and .version (--label).
LABEL org.opencontainers.image.title="leaderboard-action" \
      org.opencontainers.image.description="A leaderboard with honest error bars, as a PR comment" \
      org.opencontainers.image.licenses="MIT"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# A venv: Debian's interpreter refuses pip into the system (PEP 668); works on both bases.
# Every wheel is checked against its pinned hash: what runs is what was tested.
COPY docker/requirements.txt /app/requirements.txt
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --require-hashes --only-binary=:all: \
       -r /app/requirements.txt

# The package runs from /app (entrypoint.py puts /app first on sys.path): the renderer
# finds templates/ next to leaderboard/.
COPY leaderboard/ /app/leaderboard/
COPY templates/ /app/templates/
COPY entrypoint.py /app/entrypoint.py
# The modules byte-compiled, and the built-in templates compiled once, here: a run
# loads them (templates/__pycache__, leaderboard/render/template_cache.py).
RUN /opt/venv/bin/python -m compileall -q /app/leaderboard \
    && PYTHONPATH=/app /opt/venv/bin/python -c "from leaderboard.render.comment import \
make_environment; from leaderboard.render.template_cache import compile_templates; \
compile_templates(make_environment(write_cache=True))"

# The runner ignores WORKDIR for the entrypoint and runs as root: absolute paths only.
ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]
