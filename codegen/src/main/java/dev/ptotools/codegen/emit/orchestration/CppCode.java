package dev.ptotools.codegen.emit.orchestration;

/**
 * pypto's CodeEmitter: a line is 4 spaces per indent level and the text, an empty line a bare newline;
 * raw text is appended as is. The level can be read and set, because a MANUAL scope renders its body
 * into a separate buffer at the parent's level and splices it in afterwards.
 */
final class CppCode {

	private final StringBuilder code = new StringBuilder();
	private int level;

	CppCode(int level) {
		this.level = level;
	}

	void line(String text) {
		if (!text.isEmpty()) {
			code.append(indentAt(level)).append(text);
		}
		code.append('\n');
	}

	void raw(String text) {
		code.append(text);
	}

	void indent() {
		level++;
	}

	void dedent() {
		level--;
	}

	int level() {
		return level;
	}

	void setLevel(int l) {
		level = l;
	}

	String code() {
		return code.toString();
	}

	static String indentAt(int level) {
		return "    ".repeat(level);
	}
}
