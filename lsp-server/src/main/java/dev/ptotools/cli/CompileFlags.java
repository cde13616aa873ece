package dev.ptotools.cli;

import java.util.List;

import picocli.CommandLine.Option;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.config.CompileSettings;
import dev.ptotools.config.ProjectConfig;

/**
 * The compile settings as flags, shared by {@code pto compile} and {@code pto check} (which runs the same
 * compile, so both fail on the same programs). Flags override {@code [tool.pto]}, which overrides the
 * defaults.
 */
final class CompileFlags {

	@Option(names = "--runtime-header", paramLabel = "HEADER",
			description = "fallback (orchestration_api.h, else pto_orchestration_api.h), pto_orchestration_api or"
					+ " orchestration_api (default: [tool.pto] runtime-header, else fallback).")
	String runtimeHeader;

	@Option(names = "--runtime", paramLabel = "KIND",
			description = "pypto's runtime: tensormap_and_ringbuffer or host_build_graph (default: [tool.pto] runtime, else"
					+ " tensormap_and_ringbuffer).")
	String runtime;

	@Option(names = "--platform", paramLabel = "PLATFORM",
			description = "a2a3sim, a2a3, a5sim or a5; selects the backend (default: [tool.pto] platform, else the"
					+ " backend's simulator).")
	String platform;

	@Option(names = "--backend", paramLabel = "BACKEND",
			description = "Ascend910B or Ascend950 (default: [tool.pto] backend, else the platform's, else Ascend910B).")
	String backend;

	@Option(names = "--device-ids", paramLabel = "IDS",
			description = "Comma-separated device ids of a distributed program, one per rank, as DistributedConfig(device_ids=...)"
					+ " (default: [tool.pto] device-ids, else the module's ir.compile call, else 0).")
	String deviceIds;

	@Option(names = "--grouped-dispatch", paramLabel = "on|off", arity = "1",
			converter = OnOff.class,
			description = "Publish grouped rank loops to all ranks as one group (default: [tool.pto] grouped-dispatch, else on).")
	Boolean groupedDispatch;

	@Option(names = "--pypto-package", paramLabel = "DIR",
			description = "The folder of pypto's Python package, which the builds of builtin collectives are rendered from"
					+ " (default: [tool.pto] pypto-package, else the pypto that python3 imports).")
	java.nio.file.Path pyptoPackage;

	/** picocli converter for on/off (also true/false). */
	static final class OnOff implements picocli.CommandLine.ITypeConverter<Boolean> {
		@Override
		public Boolean convert(String value) {
			return switch (value.toLowerCase(java.util.Locale.ROOT)) {
			case "on", "true", "yes" -> true;
			case "off", "false", "no" -> false;
			default -> throw new picocli.CommandLine.TypeConversionException("expected on or off, not '" + value + "'");
			};
		}
	}

	/** The flags as a settings layer. */
	CompileSettings settings() {
		List<Integer> ids = deviceIds == null ? null : CompileSettings.parseDeviceIds(deviceIds);
		return new CompileSettings(runtimeHeader, runtime, backend, platform, ids, groupedDispatch,
				pyptoPackage == null ? null : pyptoPackage.toAbsolutePath());
	}

	/**
	 * The options for a file of a project: the flags over its [tool.pto], or the flags alone where the
	 * two do not go together ([tool.pto] has its problems reported where it is read, and the flags are
	 * validated before any file is read).
	 */
	CompileOptions options(ProjectConfig project) {
		try {
			return settings().over(project.compile()).options();
		} catch (IllegalArgumentException e) {
			return settings().options();
		}
	}

	/** Whether the flags fit together; when not, the error is printed (the command then exits 2). */
	boolean valid() {
		try {
			validate();
			return true;
		} catch (IllegalArgumentException e) {
			Cli.error(e.getMessage());
			return false;
		}
	}

	/** Checks the flags on their own, so a bad value is a usage error before any file is read. */
	void validate() {
		settings().options();
	}
}
