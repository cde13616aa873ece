package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;

import org.eclipse.xtext.nodemodel.INode;
import org.junit.jupiter.api.Test;

import dev.ptotools.language.support.Examples;

/**
 * The syntax-error nodes a parse reports ({@link ParsedFile#syntaxErrorNodeOffsets()}, found on the walk
 * that builds the span index) are every node of its node model that carries a syntax error, over broken
 * versions of the examples: characters deleted and inserted at random.
 */
class SyntaxErrorNodesTest {

	@Test
	void theNodesNotedAreEveryNodeWithASyntaxError() throws Exception {
		Random random = new Random(20261206L);
		int broken = 0;
		int cases = 0;
		for (Path p : Examples.files()) {
			String text = Files.readString(p);
			for (int i = 0; i < 40; i++) {
				int at = random.nextInt(text.length());
				String mutated = random.nextBoolean() ? text.substring(0, at) + text.substring(at + 1)
						: text.substring(0, at) + "([:=,.\"'\n".charAt(random.nextInt(9)) + text.substring(at);
				ParsedFile file = PythonFrontEnd.get().parse(mutated);
				TreeSet<Integer> walked = new TreeSet<>();
				for (INode n : file.rootNode().getAsTreeIterable()) {
					if (n.getSyntaxErrorMessage() != null) {
						walked.add(n.getOffset());
					}
				}
				assertEquals(walked, new TreeSet<>(file.syntaxErrorNodeOffsets()), mutated);
				cases++;
				broken += walked.isEmpty() ? 0 : 1;
			}
		}
		assertTrue(broken * 3 > cases, broken + " of " + cases + " cases had syntax-error nodes");
	}
}
