package dev.ptotools.language;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;

import dev.ptotools.language.python.Call;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.FunctionDef;

/**
 * Parses Python files and folders and prints, per file, its size, its definitions and calls, and
 * its syntax problems. The foundation's stand-in for the real CLI.
 */
public final class ParseMain {

	private ParseMain() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length == 0) {
			System.err.println("usage: ParseMain PATH...");
			System.exit(2);
		}
		int problems = run(List.of(args), System.out);
		System.exit(problems == 0 ? 0 : 1);
	}

	/** Returns the number of syntax problems found. */
	public static int run(List<String> paths, PrintStream out) throws IOException {
		List<Path> files = new ArrayList<>();
		for (String p : paths) {
			Path path = Path.of(p);
			if (Files.isDirectory(path)) {
				try (Stream<Path> walk = Files.walk(path)) {
					walk.filter(f -> f.toString().endsWith(".py") && Files.isRegularFile(f)).sorted().forEach(files::add);
				}
			} else {
				files.add(path);
			}
		}
		PythonFrontEnd frontEnd = PythonFrontEnd.get();
		int totalProblems = 0;
		long totalLines = 0;
		for (Path file : files) {
			ParsedFile parsed = frontEnd.parse(file);
			int classes = 0;
			int functions = 0;
			int calls = 0;
			for (TreeIterator<EObject> it = parsed.ast().eAllContents(); it.hasNext();) {
				EObject o = it.next();
				if (o instanceof ClassDef) {
					classes++;
				} else if (o instanceof FunctionDef) {
					functions++;
				} else if (o instanceof Call) {
					calls++;
				}
			}
			totalLines += parsed.lines().lineCount();
			totalProblems += parsed.problems().size();
			out.printf("%s: %d lines, %d classes, %d functions, %d calls, %d syntax problems%n", file,
					parsed.lines().lineCount(), classes, functions, calls, parsed.problems().size());
			for (SyntaxProblem p : parsed.problems()) {
				out.printf("  %s:%d:%d: %s%n", file, p.line(), p.column(), p.message());
			}
		}
		out.printf("%d files, %d lines, %d syntax problems%n", files.size(), totalLines, totalProblems);
		return totalProblems;
	}
}
