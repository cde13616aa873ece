package dev.ptotools.analyzer.support;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;

/** Development aid: prints what JitSamplesPass finds in each file given. */
public final class JitSamplesMain {

	private JitSamplesMain() {
	}

	public static void main(String[] args) throws Exception {
		for (String f : args) {
			Analysis a = Fixtures.analyze(Files.readString(Path.of(f)));
			System.out.println("== " + f);
			System.out.print(a.facts().has(Keys.JIT_SAMPLES) ? a.facts().get(Keys.JIT_SAMPLES).describe() : "(no fact)\n");
			a.diagnostics().stream().filter(d -> d.rule().equals("PTO900")).forEach(d -> System.out.println(d.message()));
		}
	}
}
