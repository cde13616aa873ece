package dev.ptotools.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Delta debugging on lines, then on characters: the smallest input that still fails. */
final class Minimizer {

	private Minimizer() {
	}

	static String minimize(String input, Predicate<String> fails) {
		if (!fails.test(input)) {
			return input; // fails only together with the server's state: keep it whole
		}
		List<String> lines = new ArrayList<>(List.of(input.split("(?<=\n)")));
		lines = reduce(lines, l -> fails.test(String.join("", l)));
		String text = String.join("", lines);
		List<String> chars = new ArrayList<>();
		text.codePoints().forEach(cp -> chars.add(new String(Character.toChars(cp))));
		if (chars.size() <= 2000) {
			return String.join("", reduce(chars, c -> fails.test(String.join("", c))));
		}
		return text;
	}

	private static List<String> reduce(List<String> items, Predicate<List<String>> fails) {
		int chunk = Math.max(1, items.size() / 2);
		int budget = 2000;
		while (chunk >= 1 && budget > 0) {
			boolean removed = false;
			for (int start = 0; start < items.size() && budget > 0; budget--) {
				List<String> candidate = new ArrayList<>(items.subList(0, start));
				candidate.addAll(items.subList(Math.min(items.size(), start + chunk), items.size()));
				if (!candidate.isEmpty() && fails.test(candidate)) {
					items = candidate;
					removed = true;
				} else {
					start += chunk;
				}
			}
			if (!removed) {
				chunk /= 2;
			}
		}
		return items;
	}
}
