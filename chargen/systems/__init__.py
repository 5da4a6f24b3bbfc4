"""The built-in engines, one package each: ``d100``, ``kotm`` and ``rtd``.

Each package declares its :class:`chargen.engines.Engine` in its ``__init__``
and registers it; :mod:`chargen.engines` imports a package the first time its
engine is asked for. A rules module names its engine in ``module.yaml``
(``engine:``; the default is the module's id), so a house module can reuse one.
"""
