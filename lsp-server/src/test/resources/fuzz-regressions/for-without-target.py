import pypto.language.i@pl.function(level=Level.HOST,role=l.Role.Orchestrator def(])
n=pld.world_size(for**in pl.range(n