package dev.ptotools.codegen.config;

import java.util.List;
import java.util.Map;
import java.util.Set;


/**
 * debug/run.py, the replay script pypto's compile writes beside each program's metadata
 * (python/pypto/runtime/debug/run_script_writer.py, called from compiled_program.py's _write_debug_runner):
 * a fixed text around two generated parts, the parameter initialisations in {@code _inline_inputs} and the
 * parameter names. It is written from the same parameter list and platform as compiled_meta.json (a
 * one-orchestration chip build) or distributed_meta.json (a distributed build), and only where one of those
 * is written: pypto writes both from the same _get_metadata, so a signature it cannot extract gives neither,
 * and a multi-orchestration build's next_levels/ sub-builds get a compiled_meta.json but no run.py. The text
 * is pypto's byte for byte after our marker, which goes on the first line as a comment (as in
 * kernel_config.py) so the docstring stays the module docstring.
 */
public final class DebugRunScript {

	/** pypto's default when no platform is given (run_script_writer's {@code platform or "a2a3sim"}). */
	private static final String DEFAULT_PLATFORM = "a2a3sim";

	/**
	 * pypto's _to_torch_dtype (IR dtype text to torch dtype) composed with run_script_writer's
	 * _TORCH_DTYPE_NAMES: the dtypes that get their own torch name. Every other dtype (fp8, fp4, hf*, int4 ...)
	 * is named torch.float32 there, either because _to_torch_dtype has no torch dtype for it or because the
	 * name table does not list the one it has.
	 */
	private static final Map<String, String> TORCH_NAMES = Map.ofEntries(Map.entry("fp16", "torch.float16"),
			Map.entry("fp32", "torch.float32"), Map.entry("fp64", "torch.float64"),
			Map.entry("bfloat16", "torch.bfloat16"), Map.entry("int8", "torch.int8"), Map.entry("int16", "torch.int16"),
			Map.entry("int32", "torch.int32"), Map.entry("int64", "torch.int64"), Map.entry("uint8", "torch.uint8"),
			Map.entry("bool", "torch.bool"), Map.entry("index", "torch.int64"), Map.entry("uint16", "torch.uint16"),
			Map.entry("uint32", "torch.uint32"), Map.entry("uint64", "torch.uint64"));

	/** The IR dtypes whose torch dtype is in pypto's _INT_DTYPES: filled with randint(0, 8) (randn takes floats only). */
	private static final Set<String> INT_DTYPES = Set.of("int8", "int16", "int32", "int64", "index", "uint8", "uint16",
			"uint32", "uint64");

	private static final String EM_DASH = "\u2014";

	private DebugRunScript() {
	}

	/**
	 * The file text for the parameters as the metadata writers list them (maps with name, direction, shape
	 * — a list of longs, -1 for a dynamic dim, or null for a scalar — and dtype text) and the platform.
	 */
	public static String write(List<Map<String, Object>> params, String platform) {
		StringBuilder inits = new StringBuilder();
		StringBuilder names = new StringBuilder();
		for (Map<String, Object> p : params) {
			inits.append("    ").append(init(p)).append('\n');
			if (names.length() > 0) {
				names.append(", ");
			}
			names.append(p.get("name"));
		}
		if (params.isEmpty()) {
			inits.append("    pass\n");
		}
		String plat = platform == null || platform.isEmpty() ? DEFAULT_PLATFORM : platform;
		return TEMPLATE.replace("@PLATFORM@", plat).replace("@INITS@", inits)
				.replace("@NAMES@", names).replace("@DASH@", EM_DASH);
	}

	/**
	 * One initialisation line (pypto's _init_expr_for): a placeholder for a scalar, zeros for an Out tensor,
	 * random values otherwise, with dynamic dims set to 1 and a note saying so.
	 */
	static String init(Map<String, Object> p) {
		Object name = p.get("name");
		if (!(p.get("shape") instanceof List<?> shape)) {
			return name + " = None  # TODO: scalar param " + EM_DASH + " set a ctypes value";
		}
		String dtype = String.valueOf(p.get("dtype"));
		String torch = TORCH_NAMES.getOrDefault(dtype, "torch.float32");
		StringBuilder tuple = new StringBuilder("(");
		boolean dynamic = false;
		for (int i = 0; i < shape.size(); i++) {
			long d = ((Number) shape.get(i)).longValue();
			dynamic |= d < 0;
			tuple.append(i == 0 ? "" : ", ").append(d >= 0 ? d : 1);
		}
		// Python's repr of a one-element tuple keeps its comma
		tuple.append(shape.size() == 1 ? ",)" : ")");
		String note = dynamic ? "  # NOTE: dynamic dim(s) filled with 1 " + EM_DASH + " edit as needed" : "";
		String call;
		if ("Out".equals(p.get("direction"))) {
			call = "torch.zeros(" + tuple + ", dtype=" + torch + ")";
		} else if ("bool".equals(dtype)) {
			call = "torch.randint(0, 2, " + tuple + ", dtype=" + torch + ")";
		} else if (INT_DTYPES.contains(dtype)) {
			call = "torch.randint(0, 8, " + tuple + ", dtype=" + torch + ")";
		} else {
			call = "torch.randn(" + tuple + ", dtype=" + torch + ")";
		}
		return name + " = " + call + note;
	}

	/** pypto's fixed text; {@code @...@} are the generated parts. */
	private static final String TEMPLATE = """
			\"""Auto-generated debug runner @DASH@ only ``_inline_inputs`` and ``_user_compare`` are editable.

			Re-execute the kernel in the parent build_output directory:

			    python {this_file}

			When a sibling ``golden.py`` exists, inputs are loaded via
			``golden.generate_inputs`` and the run is validated against
			``compute_golden``. Otherwise (JIT path) the inputs declared inline in
			``_inline_inputs`` are used, and ``_user_compare`` is invoked after
			replay so you can write your own assertions.

			------------------------------------------------------------------------
			CLI flags (forwarded to ``pypto.runtime.debug.replay._main``)
			------------------------------------------------------------------------
			  --platform PLAT          target platform (default: @PLATFORM@)
			  --device-id N            hardware device index (default: 0)
			  --pmu LEVEL              enable PMU profiling at LEVEL
			  --swimlane               chip swimlane capture at the full level (4)
			  --swimlane-level N       chip swimlane level: 1=AICore timing, 2=+dispatch/finish,
			                           3=+sched phases, 4=+orch phases
			  --dump-args [LEVEL]      dump per-task arguments to disk (bare=1 partial, 2 full)
			  --dep-gen                enable dep_gen profiling
			  --no-recompile           skip forced cpp-edit invalidation; compatibility checks may rebuild
			  --no-rebuild-from-pto    skip ptoas/*.pto -> kernels/*.cpp rebuild
			  --log-level LEVEL        runtime log level: debug/info/timing/warn/error/null
			  --log-sync-pypto         also push --log-level to PyPTO's C++ logger
			  --validate               compare outputs vs. golden.py (auto-on if golden.py exists)
			  --no-validate            skip golden validation; runs ``_user_compare`` instead

			Examples:
			  python {this_file} --pmu 2 --swimlane              # DFX-on run
			  python {this_file} --log-level debug               # verbose runtime trace
			  python {this_file} --no-validate                   # skip golden, run _user_compare
			  # Skip forced invalidation; compatibility checks still apply.
			  python {this_file} --no-recompile --no-rebuild-from-pto

			Run ``python {this_file} --help`` for the authoritative list @DASH@ flags are
			defined in :func:`pypto.runtime.debug.replay._main`, not here, so the
			``--help`` text is always in sync.

			Generated by pypto.runtime.debug.run_script_writer.
			\"""

			import sys
			from pathlib import Path

			import torch

			from pypto.runtime.debug.replay import _main

			_WORK_DIR = Path(__file__).resolve().parent.parent


			def _inline_inputs():
			    \"""Materialise inputs from shape / dtype info embedded at compile time.\"""
			@INITS@    return [@NAMES@]


			def _user_compare(@NAMES@):
			    \"""Hand-written comparison for the JIT path (no ``golden.py``).

			    Invoked from ``_main`` after ``replay`` finishes when golden validation
			    did NOT run. Output tensors have been populated in-place by the kernel.
			    Edit the body to add your own assertions, for example::

			        expected = a + b
			        assert torch.allclose(c, expected, rtol=1e-5, atol=1e-5), (
			            f"max diff = {(c - expected).abs().max().item()}"
			        )
			    \"""
			    return  # TODO: add your comparison here


			if __name__ == "__main__":
			    sys.exit(_main(
			        [str(_WORK_DIR), *sys.argv[1:]],
			        inline_inputs=_inline_inputs,
			        user_compare=_user_compare,
			        default_platform="@PLATFORM@",
			    ))
			""";
}
