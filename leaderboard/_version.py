"""The package's version, alone in a module so that every stage can name it."""

__version__ = "0.1.0"
