package dev.ptotools.codegen;

import java.util.List;

/**
 * What a compile may vary besides its input. Generation is a pure function of the analysis and these
 * options, so the CLI and the language server produce the same bytes from the same options.
 *
 * @param header the runtime header the chip C++ includes
 * @param runtime the simpler runtime named in kernel_config.py and the meta JSON
 * @param backend the target, for the launch-spec method and the meta JSON
 * @param platform the platform recorded in compiled_meta.json and distributed_meta.json; null (not set)
 *        reads as the backend's default simulator platform, as pypto's ir.compile records it
 * @param deviceIds the device ids of DistributedConfig; their count is the world size of grouped loops
 * @param aicpuThreadNum RUNTIME_CONFIG's aicpu_thread_num (0 selects the architecture default)
 * @param numSubWorkers DistributedConfig.num_sub_workers
 * @param groupedDispatch whether a rank loop the analyzer marks grouped submits all its ranks at once
 *        ({@code _submit_chip_group}); off, host_orch.py is exactly pypto's per-rank {@code _submit_chip}
 * @param dumpPasses whether each program's folder also gets {@code passes_dump/}: the IR after the front
 *        end and after each pass, as pypto's {@code ir.compile} dumps it (its file names and numbering)
 * @param builtinTemplates where the builtin collectives' chip builds are rendered from (pypto's templates)
 */
public record CompileOptions(RuntimeHeader header, Runtime runtime, Backend backend, String platform,
		List<Integer> deviceIds, int aicpuThreadNum, int numSubWorkers, boolean groupedDispatch, boolean dumpPasses,
		BuiltinTemplates builtinTemplates) {

	/** The fallback header, tensormap_and_ringbuffer, Ascend910B, no platform set, one device, grouped dispatch on. */
	public static final CompileOptions DEFAULT = new CompileOptions(RuntimeHeader.FALLBACK,
			Runtime.TENSORMAP_AND_RINGBUFFER, Backend.ASCEND_910B, null, List.of(0), 0, 0, true, false, BuiltinTemplates.NONE);

	public CompileOptions {
		deviceIds = List.copyOf(deviceIds);
		builtinTemplates = builtinTemplates == null ? BuiltinTemplates.NONE : builtinTemplates;
		if (deviceIds.isEmpty()) {
			throw new IllegalArgumentException("deviceIds must not be empty");
		}
	}

	public CompileOptions withHeader(RuntimeHeader h) {
		return new CompileOptions(h, runtime, backend, platform, deviceIds, aicpuThreadNum, numSubWorkers, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withRuntime(Runtime r) {
		return new CompileOptions(header, r, backend, platform, deviceIds, aicpuThreadNum, numSubWorkers, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withBackend(Backend b) {
		return new CompileOptions(header, runtime, b, platform, deviceIds, aicpuThreadNum, numSubWorkers, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withPlatform(String p) {
		return new CompileOptions(header, runtime, backend, p, deviceIds, aicpuThreadNum, numSubWorkers, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withDeviceIds(List<Integer> ids) {
		return new CompileOptions(header, runtime, backend, platform, ids, aicpuThreadNum, numSubWorkers, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withNumSubWorkers(int n) {
		return new CompileOptions(header, runtime, backend, platform, deviceIds, aicpuThreadNum, n, groupedDispatch, dumpPasses, builtinTemplates);
	}

	public CompileOptions withDumpPasses(boolean on) {
		return new CompileOptions(header, runtime, backend, platform, deviceIds, aicpuThreadNum, numSubWorkers,
				groupedDispatch, on, builtinTemplates);
	}

	public CompileOptions withBuiltinTemplates(BuiltinTemplates t) {
		return new CompileOptions(header, runtime, backend, platform, deviceIds, aicpuThreadNum, numSubWorkers,
				groupedDispatch, dumpPasses, t);
	}

	public CompileOptions withGroupedDispatch(boolean on) {
		return new CompileOptions(header, runtime, backend, platform, deviceIds, aicpuThreadNum, numSubWorkers, on, dumpPasses, builtinTemplates);
	}

	/** The platform as pypto records it: the one set, else the backend's default simulator platform. */
	@Override
	public String platform() {
		return platform != null ? platform : backend.defaultSimPlatform();
	}

	public int worldSize() {
		return deviceIds.size();
	}
}
