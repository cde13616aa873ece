package dev.ptotools.analyzer.incremental;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.language.TopLevelChunks;

/**
 * A module's text cut into its top-level statements ({@link TopLevelChunks}), each either a
 * <em>unit</em> — a top-level {@code class} or {@code def} (decorators included) that can be
 * re-analyzed on its own — or <em>context</em>, which every re-analysis keeps: imports, constants,
 * module-level calls, the first statement of the file, and any class or def whose text could change
 * what other statements mean without naming them (an import in any block, since every import of
 * pypto counts; {@code global}/{@code nonlocal}; a whole-file suppression comment).
 *
 * <p>A lexical reading, not a parse: what it cannot classify is context, which only costs reuse.
 */
public final class ModuleUnits {

	/** Words whose presence in a class or def makes it context. */
	private static final List<String> MODULE_WIDE = List.of("import", "global", "nonlocal", "ignore-file");

	/** One top-level statement: [start, end) of the text, and the name it binds when it is a unit. */
	public record Piece(int start, int end, String bound) {

		public boolean isUnit() {
			return bound != null;
		}
	}

	private final String text;
	private final List<Piece> pieces;
	/** The pieces' starts, ascending, for {@link #pieceAt}. */
	private final int[] starts;
	private final Map<String, List<Integer>> unitsBinding;

	private ModuleUnits(String text, List<Piece> pieces, int[] starts) {
		this.text = text;
		this.pieces = pieces;
		this.starts = starts;
		this.unitsBinding = new HashMap<>();
		for (int i = 0; i < pieces.size(); i++) {
			if (pieces.get(i).isUnit()) {
				unitsBinding.computeIfAbsent(pieces.get(i).bound(), k -> new ArrayList<>()).add(i);
			}
		}
	}

	/** The text cut and classified; null when it cannot be cut (a bracket or string open at its end). */
	public static ModuleUnits of(String text) {
		int[] starts = TopLevelChunks.starts(text);
		if (starts == null) {
			return null;
		}
		boolean[] context = new boolean[starts.length];
		context[0] = true; // the file's head: shebang, coding line and docstring are read from there
		for (String word : MODULE_WIDE) {
			for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length())) {
				context[floor(starts, at)] = true;
			}
		}
		List<Piece> pieces = new ArrayList<>(starts.length);
		for (int i = 0; i < starts.length; i++) {
			int end = i + 1 < starts.length ? starts[i + 1] : text.length();
			pieces.add(new Piece(starts[i], end, context[i] ? null : boundName(text, starts[i], end)));
		}
		return new ModuleUnits(text, List.copyOf(pieces), starts);
	}

	public String text() {
		return text;
	}

	public List<Piece> pieces() {
		return pieces;
	}

	/** The index of the piece holding an offset (the last piece for the text's end). */
	public int pieceAt(int offset) {
		return floor(starts, offset);
	}

	/** The index of the last of ascending, distinct values at or below a key (0 when none is). */
	static int floor(int[] ascending, int key) {
		int at = java.util.Arrays.binarySearch(ascending, key);
		return at >= 0 ? at : Math.max(0, -at - 2);
	}

	/** The units binding a name (a later one shadows an earlier one, so both are listed). */
	public List<Integer> unitsBinding(String name) {
		return unitsBinding.getOrDefault(name, List.of());
	}

	/** The text of a piece, equal to another's text (compared in place). */
	public boolean sameText(int piece, ModuleUnits other, int otherPiece) {
		Piece a = pieces.get(piece);
		Piece b = other.pieces.get(otherPiece);
		int length = a.end() - a.start();
		return length == b.end() - b.start() && text.regionMatches(a.start(), other.text, b.start(), length);
	}

	/**
	 * The pieces of the text, from {@code from}, that hold {@code name} as a whole word anywhere (code,
	 * strings and comments alike: a mention in a string may still be a reference, as in
	 * {@code getattr}).
	 */
	public List<Integer> piecesMentioning(String name) {
		List<Integer> out = new ArrayList<>();
		for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length())) {
			int end = at + name.length();
			if ((at > 0 && isWordPart(text.charAt(at - 1))) || (end < text.length() && isWordPart(text.charAt(end)))) {
				continue;
			}
			int p = pieceAt(at);
			if (out.isEmpty() || out.get(out.size() - 1) != p) {
				out.add(p);
			}
		}
		return out;
	}

	/** Every word (identifier-like run) in a piece's text. */
	public List<String> words(int piece) {
		Piece p = pieces.get(piece);
		List<String> out = new ArrayList<>();
		int i = p.start();
		while (i < p.end()) {
			if (isWordStart(text.charAt(i)) && (i == p.start() || !isWordPart(text.charAt(i - 1)))) {
				int s = i;
				while (i < p.end() && isWordPart(text.charAt(i))) {
					i++;
				}
				out.add(text.substring(s, i));
			} else {
				i++;
			}
		}
		return out;
	}

	/**
	 * The name a top-level {@code class}/{@code def} binds: the first line in column 0 after its
	 * decorators; null when the piece is anything else.
	 */
	private static String boundName(String text, int start, int end) {
		int line = start;
		while (line < end) {
			char c = text.charAt(line);
			if (c == '@' || c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
				// a decorator, a comment, a blank line or a decorator's arguments going on over lines
				line = nextLine(text, line, end);
				continue;
			}
			int at = line;
			if (text.startsWith("async", at) && at + 5 < end && (text.charAt(at + 5) == ' ' || text.charAt(at + 5) == '\t')) {
				at = skipBlanks(text, at + 5, end);
			}
			int keywordEnd;
			if (text.startsWith("def", at)) {
				keywordEnd = at + 3;
			} else if (text.startsWith("class", at)) {
				keywordEnd = at + 5;
			} else {
				return null;
			}
			if (keywordEnd >= end || (text.charAt(keywordEnd) != ' ' && text.charAt(keywordEnd) != '\t')) {
				return null;
			}
			int s = skipBlanks(text, keywordEnd, end);
			int e = s;
			while (e < end && isWordPart(text.charAt(e))) {
				e++;
			}
			return e > s && isWordStart(text.charAt(s)) ? text.substring(s, e) : null;
		}
		return null;
	}

	private static int nextLine(String text, int at, int end) {
		while (at < end && text.charAt(at) != '\n') {
			at++;
		}
		return at + 1;
	}

	private static int skipBlanks(String text, int at, int end) {
		while (at < end && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
			at++;
		}
		return at;
	}

	static boolean isWordStart(char c) {
		return Character.isJavaIdentifierStart(c) && c != '$';
	}

	static boolean isWordPart(char c) {
		return Character.isJavaIdentifierPart(c) && c != '$';
	}
}
