package dev.ptotools.analyzer.report;

/** Source-line helpers shared by the writers. */
final class Sources {

	private Sources() {
	}

	/** The text of the line holding an offset, without its line break. */
	static String lineText(FileReport file, int offset) {
		int line = file.lines().line(offset);
		int start = file.lines().lineStart(line);
		int end = file.lines().lineEnd(file.text(), line);
		return file.text().substring(start, Math.max(start, end));
	}
}
