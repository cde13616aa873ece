package dev.ptotools.codegen.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * A program of the IR (pypto's {@code Program}): its functions in order. pypto keeps them in a map
 * sorted by name; {@link #functions()} is that order where it matters to output (see
 * {@link #sortedByName()}), and passes add functions through {@link #with}.
 */
public record Program(String name, List<Function> functions) {

	public Program {
		functions = List.copyOf(functions);
	}

	public Function function(String fname) {
		for (Function f : functions) {
			if (f.name().equals(fname)) {
				return f;
			}
		}
		return null;
	}

	/** This program with f replacing the function of the same name, or added at the end. */
	public Program with(Function f) {
		List<Function> out = new ArrayList<>(functions);
		for (int i = 0; i < out.size(); i++) {
			if (out.get(i).name().equals(f.name())) {
				out.set(i, f);
				return new Program(name, out);
			}
		}
		out.add(f);
		return new Program(name, out);
	}

	public Program withFunctions(List<Function> fs) {
		return new Program(name, fs);
	}

	/** The functions ordered by name, as pypto's {@code Program::functions_} map iterates them. */
	public List<Function> sortedByName() {
		List<Function> out = new ArrayList<>(functions);
		out.sort((a, b) -> a.name().compareTo(b.name()));
		return out;
	}
}
