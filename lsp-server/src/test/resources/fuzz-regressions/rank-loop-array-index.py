import pypto.language.i@pl.function(level=l.Level.HOST,role=Role.Orchestrator def()->]
for n pl.range(pld.world_size()s not