import pypto.language.i@pl.function(level=l.Level.HOST,role=l.Role.Orchestrator def o)->[[]]
for n pl.range(pld.world_size(:(in in