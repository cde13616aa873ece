package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.language.support.Examples;

/**
 * The editor configurations the end-to-end tests run are the snippets of docs/editors.md, character
 * for character (the tests only fill in the jar path): a change to one must be made to the other.
 */
class EditorSnippetsTest {

	private static String docs() throws Exception {
		return Files.readString(Examples.dir().resolveSibling("editors.md"));
	}

	/** The fenced code blocks of a language inside the section that starts with {@code heading}. */
	static List<String> blocks(String markdown, String heading, String language) {
		List<String> out = new ArrayList<>();
		String[] lines = markdown.split("\n", -1);
		int level = 0;
		boolean inSection = false;
		StringBuilder block = null;
		for (String l : lines) {
			if (block != null) {
				if (l.equals("```")) {
					out.add(block.toString());
					block = null;
				} else {
					block.append(l).append('\n');
				}
				continue;
			}
			if (l.startsWith("#")) {
				int hashes = l.indexOf(' ');
				if (l.equals(heading)) {
					inSection = true;
					level = hashes;
				} else if (inSection && hashes <= level) {
					inSection = false;
				}
			} else if (inSection && l.equals("```" + language)) {
				block = new StringBuilder();
			}
		}
		return out;
	}

	@Test
	void neovimConfigurationIsTheDocsStartClientSnippet() throws Exception {
		List<String> lua = blocks(docs(), "### Neovim 0.7+: `vim.lsp.start_client` in an autocmd", "lua");
		assertEquals(2, lua.size(), lua.toString()); // the client, then :PtoShowGeneratedCode
		assertEquals(String.join("\n", lua), EditorRun.resource("neovim/init.lua"));
	}

	@Test
	void emacsConfigurationIsTheDocsEglotSnippets() throws Exception {
		List<String> elisp = blocks(docs(), "## Emacs (eglot)", "elisp");
		assertEquals(2, elisp.size(), elisp.toString());
		assertEquals(String.join("\n", elisp), EditorRun.resource("emacs/init.el"));
	}

	@Test
	void theSnippetsNameTheJarByThePlaceholder() throws Exception {
		for (String r : new String[] { "neovim/init.lua", "emacs/init.el" }) {
			String text = EditorRun.resource(r);
			assertEquals(true, text.contains(EditorRun.JAR_PLACEHOLDER), r);
		}
		assertEquals(true, Files.exists(Path.of(Examples.dir().resolveSibling("editors.md").toString())));
	}
}
