"""A toy rules system that lives only in tests/: proof that an engine is one package and one
registration. Two characteristics, one table; its own module folder, template and roll."""
