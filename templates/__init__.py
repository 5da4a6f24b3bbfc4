# Makes this folder the package chargen._templates in an installed wheel (see pyproject.toml).
