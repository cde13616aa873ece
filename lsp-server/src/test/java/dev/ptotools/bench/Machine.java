package dev.ptotools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What the figures were measured on: the lines BENCHMARKS.md opens with. */
final class Machine {

	private Machine() {
	}

	static List<String> describe(Path pyrightLangserver) {
		List<String> out = new ArrayList<>();
		out.add("CPU: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores available");
		out.add("memory: " + memTotal());
		out.add("OS: " + osName() + ", kernel " + System.getProperty("os.version"));
		out.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		out.add("Python: " + command("python3", "--version"));
		out.add("node: " + command("node", "--version") + ", pyright "
				+ (pyrightLangserver == null ? "not used" : LspLatency.pyrightVersion(pyrightLangserver)));
		out.add("pto-tools: commit " + command("git", "rev-parse", "--short", "HEAD")
				+ (command("git", "status", "--porcelain", "--untracked-files=no").isEmpty() ? "" : " (with local changes)"));
		return out;
	}

	static String loadAverage() {
		return LspLatency.loadAverage();
	}

	private static String cpuModel() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).strip();
				}
			}
		} catch (IOException e) {
			// not Linux
		}
		return System.getProperty("os.arch");
	}

	private static String memTotal() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
					return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
				}
			}
		} catch (IOException e) {
			// not Linux
		}
		return "unknown";
	}

	private static String osName() {
		try {
			for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
				if (line.startsWith("PRETTY_NAME=")) {
					return line.substring(12).replace("\"", "");
				}
			}
		} catch (IOException e) {
			// no os-release
		}
		return System.getProperty("os.name");
	}

	/** A command's first line of output, or "not found". */
	static String command(String... command) {
		try {
			Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
			String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
				return "not found";
			}
			return out.lines().findFirst().orElse("");
		} catch (Exception e) {
			return "not found";
		}
	}
}
