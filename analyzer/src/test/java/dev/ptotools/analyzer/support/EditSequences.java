package dev.ptotools.analyzer.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.ptotools.language.corpus.CorpusScan;

/**
 * Seeded edits of the kinds an editor sends, for tests that compare an incremental result with a whole
 * one after every step: comment lines inserted (indented like their line), lines deleted, another line
 * typed up to a random column (so most steps are half-typed), single characters inserted and deleted,
 * lines duplicated, undo, and reverting to the original text.
 */
public final class EditSequences {

	private EditSequences() {
	}

	/**
	 * The next text of an edit sequence: one edit of {@code text} (see the class comment), or, one time
	 * in ten, the text reverted to {@code seed}; {@code before} is the text before {@code text} (undo).
	 */
	public static String next(String seed, String text, String before, Random random) {
		return random.nextInt(10) == 0 ? seed : edit(text, before, random);
	}

	/**
	 * The texts of every .py file under {@code -Dincremental.corpus=DIR} (pypto's examples and tests, say),
	 * as further seeds for the tests that compare incremental work with whole work; none without it.
	 */
	public static List<String> corpusSeeds() throws IOException {
		List<String> seeds = new ArrayList<>();
		String corpus = System.getProperty("incremental.corpus");
		if (corpus != null) {
			for (Path p : CorpusScan.pythonFiles(Path.of(corpus))) {
				seeds.add(Files.readString(p));
			}
		}
		return seeds;
	}

	/** One edit of the kinds an editor sends. */
	public static String edit(String text, String before, Random random) {
		String[] lines = text.split("\n", -1);
		int line = random.nextInt(lines.length);
		int at = offsetOfLine(lines, line);
		switch (random.nextInt(7)) {
			case 0: // a comment line, indented like the line it goes before
				return text.substring(0, at) + indent(lines[line]) + "# note " + random.nextInt(100) + "\n"
						+ text.substring(at);
			case 1: // a line deleted
				return text.substring(0, at) + text.substring(Math.min(text.length(), at + lines[line].length() + 1));
			case 2: { // another line typed a prefix at a time: half-typed most of the time
				String source = lines[random.nextInt(lines.length)];
				int cut = source.isEmpty() ? 0 : random.nextInt(source.length() + 1);
				return text.substring(0, at) + source.substring(0, cut) + "\n" + text.substring(at);
			}
			case 3: { // one character
				int o = random.nextInt(text.length() + 1);
				String c = String.valueOf("x(:)[]=,.\"' \n#1".charAt(random.nextInt(15)));
				return text.substring(0, o) + c + text.substring(o);
			}
			case 4: // undo
				return before;
			case 5: { // a line duplicated (a statement copied)
				return text.substring(0, at) + lines[line] + "\n" + text.substring(at);
			}
			default: { // a character deleted
				if (text.isEmpty()) {
					return text;
				}
				int o = random.nextInt(text.length());
				return text.substring(0, o) + text.substring(o + 1);
			}
		}
	}

	private static int offsetOfLine(String[] lines, int line) {
		int at = 0;
		for (int i = 0; i < line; i++) {
			at += lines[i].length() + 1;
		}
		return at;
	}

	private static String indent(String line) {
		int i = 0;
		while (i < line.length() && line.charAt(i) == ' ') {
			i++;
		}
		return line.substring(0, i);
	}
}
