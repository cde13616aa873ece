package dev.ptotools.codegen.support;

/**
 * pypto's CodeEmitter: a line is the indent (4 spaces per level) and the text, a blank line is a bare
 * newline. Every line ends in exactly one {@code \n}.
 */
public final class CodeEmitter {

	private final StringBuilder code = new StringBuilder();
	private int indent;

	public CodeEmitter() {
		this(0);
	}

	public CodeEmitter(int indent) {
		this.indent = indent;
	}

	public void line(String text) {
		if (!text.isEmpty()) {
			code.append("    ".repeat(indent)).append(text);
		}
		code.append('\n');
	}

	public void blank() {
		code.append('\n');
	}

	/** Each non-empty line of a multi-line text at the current indent (pypto drops empty lines). */
	public void lines(String text) {
		for (String l : text.split("\n", -1)) {
			if (!l.isEmpty()) {
				line(l);
			}
		}
	}

	public void indent() {
		indent++;
	}

	public void dedent() {
		indent--;
	}

	public int level() {
		return indent;
	}

	public String code() {
		return code.toString();
	}
}
