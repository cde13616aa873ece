import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.analyzer.support.GeneratedPrograms;

/**
 * Writes a folder of generated PyPTO modules for bench/check-vs-pyright.sh. Run as a single-file
 * program with the analyzer's test classes on the class path:
 * {@code java -cp analyzer/target/test-classes bench/GenerateCorpus.java OUT MODULES LINES}.
 */
public class GenerateCorpus {
	public static void main(String[] args) throws Exception {
		Path out = Path.of(args[0]);
		int modules = Integer.parseInt(args[1]);
		int lines = Integer.parseInt(args[2]);
		Files.createDirectories(out);
		for (int i = 0; i < modules; i++) {
			Files.writeString(out.resolve(String.format("module_%03d.py", i)), GeneratedPrograms.multiRank(lines));
		}
	}
}
