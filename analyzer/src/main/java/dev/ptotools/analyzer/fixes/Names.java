package dev.ptotools.analyzer.fixes;

import java.util.Collection;

/** Finding the name someone probably meant. */
public final class Names {

	private Names() {
	}

	/** The candidate closest to a misspelled name, when it is close enough to suggest; else null. */
	public static String closest(String name, Collection<String> candidates) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String c : candidates) {
			int d = distance(name.toLowerCase(), c.toLowerCase());
			if (d < bestDistance) {
				bestDistance = d;
				best = c;
			}
		}
		if (best == null) {
			return null;
		}
		int limit = Math.max(1, Math.min(3, name.length() / 3));
		return bestDistance <= limit && !best.equals(name) ? best : null;
	}

	/** Damerau-Levenshtein distance (optimal string alignment). */
	static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}
}
