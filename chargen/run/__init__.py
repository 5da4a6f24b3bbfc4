"""One run: what it makes (:class:`~chargen.run.spec.RunSpec`), the one orchestrator
(:class:`~chargen.run.pipeline.Pipeline`), and the only code that writes files."""
