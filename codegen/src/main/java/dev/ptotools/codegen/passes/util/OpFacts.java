package dev.ptotools.codegen.passes.util;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.MemorySpace;

/**
 * The memory and core facts of pypto's op registry (REGISTER_OP ... set_output_memory,
 * set_core_affinity, set_input_memory), read from {@code ops/op_memory.tsv}: what a tile op produces,
 * which core an op is pinned to, and which memory spaces its tile inputs must be in.
 */
public final class OpFacts {

	/** How an op's output memory is decided. */
	public enum OutputKind {
		/** No output memory declared. */
		NONE,
		/** A fixed space. */
		FIXED,
		/** The value of a kwarg (default when absent, may be null: then the op is retargetable). */
		KWARG,
		/** The first tile input's space. */
		INHERIT
	}

	/** One op's facts. {@code inputs.get(i)} lists the allowed spaces of tile argument i (empty: any). */
	public record Entry(String name, OutputKind output, MemorySpace fixed, String kwarg, MemorySpace kwargDefault,
			String affinity, Map<Integer, List<MemorySpace>> inputs) {
	}

	private static final Map<String, Entry> ENTRIES = load();

	private OpFacts() {
	}

	public static Entry get(String op) {
		return ENTRIES.get(op);
	}

	public static boolean registered(String op) {
		return ENTRIES.containsKey(op);
	}

	private static Map<String, Entry> load() {
		Map<String, Entry> out = new HashMap<>();
		try (InputStream in = OpFacts.class.getResourceAsStream("/dev/ptotools/codegen/ops/op_memory.tsv")) {
			if (in == null) {
				throw new IllegalStateException("op_memory.tsv missing from the class path");
			}
			BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
			String line;
			while ((line = r.readLine()) != null) {
				if (line.isBlank() || line.startsWith("#")) {
					continue;
				}
				String[] f = line.split("\t", -1);
				String name = f[0];
				String outSpec = f.length > 1 ? f[1] : "";
				String affinity = f.length > 2 && !f[2].isEmpty() ? f[2] : null;
				String inSpec = f.length > 3 ? f[3] : "";
				OutputKind kind = OutputKind.NONE;
				MemorySpace fixed = null;
				String kwarg = null;
				MemorySpace kwDefault = null;
				if (outSpec.equals("inherit")) {
					kind = OutputKind.INHERIT;
				} else if (outSpec.startsWith("kwarg:")) {
					kind = OutputKind.KWARG;
					String[] k = outSpec.split(":");
					kwarg = k[1];
					kwDefault = k.length > 2 ? MemorySpace.named(k[2]) : null;
				} else if (!outSpec.isEmpty()) {
					kind = OutputKind.FIXED;
					fixed = MemorySpace.named(outSpec);
				}
				Map<Integer, List<MemorySpace>> inputs = new HashMap<>();
				if (!inSpec.isEmpty()) {
					for (String part : inSpec.split(";")) {
						String[] kv = part.split(":");
						List<MemorySpace> spaces = new ArrayList<>();
						for (String s : kv[1].split(",")) {
							spaces.add(MemorySpace.named(s));
						}
						inputs.put(Integer.parseInt(kv[0]), spaces);
					}
				}
				out.put(name, new Entry(name, kind, fixed, kwarg, kwDefault, affinity, Collections.unmodifiableMap(inputs)));
			}
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return Collections.unmodifiableMap(out);
	}
}
