package dev.ptotools.lsp;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Tells the user what the server could not use in the editor's settings or in a pyproject.toml (a
 * rule name or id that matches no rule, a wrong type...): one warning per source when its problems
 * change, not each time the same settings are read again (an editor sends its settings at start, on
 * didChangeConfiguration and on every workspace/configuration pull; pyproject.toml is re-read after
 * each of them).
 */
public final class ConfigurationWarnings {

	private final Map<String, List<String>> lastShown = new ConcurrentHashMap<>();
	private final Consumer<String> show;

	/** @param show shows one message to the user (the server: window/showMessage, type Warning) */
	public ConfigurationWarnings(Consumer<String> show) {
		this.show = show;
	}

	/**
	 * The problems of one source ("pto settings", "pto settings of /folder", a pyproject.toml's path)
	 * as just read; shown when there are some and they differ from those last shown for it.
	 */
	public void report(String source, List<String> problems) {
		List<String> previous = lastShown.put(source, List.copyOf(problems));
		if (!problems.isEmpty() && !problems.equals(previous)) {
			show.accept("PTO: " + source + ": " + String.join("; ", problems));
		}
	}
}
