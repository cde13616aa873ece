package dev.ptotools.codegen.layout;

/**
 * pypto's build_output layout, with stable paths under one folder per program:
 * {@code <program>/orchestration/<orch>.cpp} and {@code <program>/kernel_config.py} for one chip;
 * {@code <program>/orchestration/host_orch.py}, {@code <program>/next_levels/<chip>/orchestration/<chip>.cpp},
 * {@code <program>/next_levels/<chip>/kernel_config.py}, {@code <program>/sub_workers/<name>.py} and
 * {@code <program>/distributed_meta.json} with a HOST orchestrator; {@code next_levels/<orch>/...} for each of several chip orchestrators;
 * {@code <program>/debug/run.py} beside compiled_meta.json (one chip) or distributed_meta.json.
 */
public final class ProgramLayout {

	private ProgramLayout() {
	}

	public static String singleChipCpp(String program, String orch) {
		return program + "/orchestration/" + orch + ".cpp";
	}

	public static String singleChipConfig(String program) {
		return program + "/kernel_config.py";
	}

	public static String nextLevelCpp(String program, String orch) {
		return program + "/next_levels/" + orch + "/orchestration/" + orch + ".cpp";
	}

	public static String nextLevelConfig(String program, String orch) {
		return program + "/next_levels/" + orch + "/kernel_config.py";
	}

	public static String hostOrch(String program) {
		return program + "/orchestration/host_orch.py";
	}

	public static String subWorker(String program, String name) {
		return program + "/sub_workers/" + name + ".py";
	}

	/** compiled_meta.json of a single-chip build: beside kernel_config.py ({@code subBuild} null) or in next_levels/. */
	public static String compiledMeta(String program, String subBuild) {
		return subBuild == null ? program + "/compiled_meta.json" : program + "/next_levels/" + subBuild + "/compiled_meta.json";
	}

	public static String distributedMeta(String program) {
		return program + "/distributed_meta.json";
	}

	/** pypto's replay script (run_script_writer): {@code <work_dir>/debug/run.py}. */
	public static String debugRunScript(String program) {
		return program + "/debug/run.py";
	}
}
