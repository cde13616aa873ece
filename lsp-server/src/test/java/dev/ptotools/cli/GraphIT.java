package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pto graph} in a real browser: headless Chromium (Debian's package) renders each page the
 * command writes for our example programs; the test reads the rendered DOM and checks it against the
 * generated code that {@code pto compile} writes for the same programs, read as text: one task node
 * per submit (names in order), one edge per dependency the code's tensor directions imply, one group
 * node per grouped rank loop; and that no page refers to anything outside itself. Screenshots go to
 * target/screenshots/ (docs/images/task-graph.png is one of them).
 */
class GraphIT {

	/** A chip orchestration with a loop, a view and an explicit dependency on top of the bundled examples. */
	private static final String LOOPS = """
			import pypto.language as pl

			@pl.program
			class LoopChain:
			    @pl.function(type=pl.FunctionType.AIV)
			    def add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        ta = pl.load(a, [0, 0], [16, 16])
			        tb = pl.load(b, [0, 0], [16, 16])
			        return pl.store(pl.add(ta, tb), [0, 0], out)

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			             d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        c = pl.create_tensor([16, 16], dtype=pl.FP32)
			        c = self.add(a, b, c)
			        for i in pl.range(4):
			            a = self.add(c, b, a)
			        d = self.add(a, c, d)
			        return d
			""";

	@TempDir
	static Path work;

	private static Path pages;
	private static Path compiled;
	private static Path chromium;

	@BeforeAll
	static void writePagesAndCompile() throws IOException {
		chromium = chromium();
		Path inputs = work.resolve("in");
		Files.createDirectories(inputs);
		try (Stream<Path> s = Files.list(Pto.examples())) {
			for (Path p : s.filter(f -> f.toString().endsWith(".py")).toList()) {
				Files.copy(p, inputs.resolve(p.getFileName()));
			}
		}
		Files.writeString(inputs.resolve("loop_chain.py"), LOOPS);
		pages = work.resolve("pages");
		compiled = work.resolve("compiled");
		Pto.Run g = Pto.run(work, "graph", "in", "-o", "pages");
		// ineligible_loops.py has an error pypto reports: its program gets no page, and the exit says so
		assertEquals(1, g.exit(), g.toString());
		assertTrue(g.err().contains("ineligible_loops.py"), g.toString());
		assertTrue(g.out().startsWith("Wrote the task graphs of 4 programs into pages: open pages/index.html"), g.toString());
		Pto.Run c = Pto.run(work, "compile", "in", "-o", "compiled");
		assertEquals(1, c.exit(), c.toString());
	}

	@Test
	void everyPageShowsTheSubmitsAndDependenciesOfTheGeneratedCode() throws Exception {
		Document index = render(pages.resolve("index.html"), "index");
		List<String> links = index.select("table.index a").eachAttr("href");
		assertEquals(List.of("AddChain.html", "LoopChain.html", "PartialSums.html", "Broadcast.html").stream().sorted().toList(),
				links.stream().sorted().toList(), index.outerHtml());
		assertEquals(7, checkPages(pages, compiled, links, true),
				"every orchestration once: AddChain 1, LoopChain 1, PartialSums 3, Broadcast 2");
	}

	/**
	 * -Dgraph.corpus=DIR (pypto's examples, fetched): the same check on every page pto graph writes for a
	 * folder (the pages parsed as written, no browser, for speed); prints the counts.
	 */
	@Test
	void aCorpusGivenOnTheCommandLine() throws Exception {
		String corpus = System.getProperty("graph.corpus");
		Assumptions.assumeTrue(corpus != null && !corpus.isBlank(), "-Dgraph.corpus=DIR not given");
		Path out = work.resolve("corpus");
		Pto.Run g = Pto.run(work, "graph", corpus, "-o", out.resolve("pages").toString());
		Pto.Run c = Pto.run(work, "compile", corpus, "-o", out.resolve("compiled").toString());
		assertTrue(g.exit() <= 1 && c.exit() <= 1, g + "\n" + c);
		// two modules with one program name share one compiled folder (pto compile refuses the second): leave them out
		List<Element> rows = Jsoup.parse(Files.readString(out.resolve("pages/index.html")), "").select("table.index a");
		Map<String, Integer> perName = new HashMap<>();
		rows.forEach(a -> perName.merge(a.text(), 1, Integer::sum));
		List<String> links = rows.stream().filter(a -> perName.get(a.text()) == 1).map(a -> a.attr("href")).toList();
		int sections = checkPages(out.resolve("pages"), out.resolve("compiled"), links, false);
		System.out.printf("graph corpus: %d pages, %d orchestrations, every one as its generated code%n", links.size(),
				sections);
	}

	/** Checks each linked page against the compiled folder; returns the number of orchestrations seen. */
	private static int checkPages(Path pages, Path compiled, List<String> links, boolean inBrowser) throws Exception {
		int sections = 0;
		for (String link : links) {
			Document page = inBrowser ? render(pages.resolve(link), link.replace(".html", ""))
					: Jsoup.parse(Files.readString(pages.resolve(link)), "");
			String program = page.selectFirst("h1").text();
			for (Element section : page.select("section.orchestration")) {
				sections++;
				String code = Files.readString(compiled.resolve(program).resolve(section.attr("data-file")));
				boolean host = section.attr("data-level").equals("host");
				Expected expected = host ? hostTasks(code) : chipTasks(code);
				List<String> names = section.select("g.task").stream().map(e -> e.attr("data-name")).toList();
				assertEquals(expected.names(), names, program + " " + section.attr("data-function"));
				for (int i = 0; i < names.size(); i++) {
					assertEquals(Integer.toString(i), section.select("g.task").get(i).attr("data-task"));
				}
				// the dependencies the runtime derives from the tensors (explicit deps=[...] are the codegen tests')
				Set<String> edges = new TreeSet<>();
				for (Element e : section.select("path.edge")) {
					if (!e.attr("data-reason").equals("EXPLICIT")) {
						edges.add(e.attr("data-from") + "->" + e.attr("data-to"));
					}
				}
				assertEquals(expected.edges(), edges, program + " " + section.attr("data-function") + "\n" + code);
				// one group node per grouped rank loop, inside that loop's box
				int groups = count(code, "_submit_chip_group(orch, callables[");
				assertEquals(groups, section.select("g.task.group").size());
				assertEquals(groups, section.select("g.loop.rank-loop.grouped").size());
				for (Element t : section.select("g.task")) {
					assertTrue(Integer.parseInt(t.attr("data-line")) > 0, t.outerHtml());
				}
			}
		}
		return sections;
	}

	@Test
	void aRankLoopThatIsNotGroupedSaysWhyAndItsDispatchesArePerRank() throws Exception {
		Document page = render(pages.resolve("PartialSums.html"), "PartialSums");
		Element host = page.selectFirst("section.orchestration[data-level=host]");
		assertEquals(List.of("CHIP_GROUP", "CHIP", "CHIP"), host.select("g.task").eachAttr("data-kind"));
		Element staggered = host.selectFirst("g.loop.rank-loop.staggered");
		assertEquals("PTO104", staggered.attr("data-rule"));
		assertTrue(staggered.text().contains("per rank, staggered: PTO104"), staggered.text());
		assertTrue(host.selectFirst("g.loop.rank-loop.grouped").text().contains("grouped: one publication to all ranks"));
		// the table says the same without the drawing
		assertEquals(3, host.select("table.tasks tbody tr").size());
	}

	@Test
	void thePagesReferToNothingOutsideThemselves() throws Exception {
		try (Stream<Path> files = Files.list(pages)) {
			for (Path p : files.filter(f -> f.toString().endsWith(".html")).toList()) {
				Document d = Jsoup.parse(Files.readString(p), "");
				for (Element e : d.select("[src], [href], link, iframe, object, embed, img")) {
					String ref = e.hasAttr("src") ? e.attr("src") : e.attr("href");
					assertFalse(ref.isEmpty() || ref.contains(":") || ref.startsWith("//"), p + ": " + e.outerHtml());
				}
				assertFalse(Files.readString(p).contains("url(http"), p.toString());
				assertFalse(Files.readString(p).contains("@import"), p.toString());
				if (!p.getFileName().toString().equals("index.html")) {
					// the graph itself is drawn without script: it is in the served markup
					assertFalse(d.select("svg.graph g.task").isEmpty(), p.toString());
				}
			}
		}
	}

	/** What the generated code submits: task names in order, and the dependencies its directions imply. */
	record Expected(List<String> names, Set<String> edges) {
	}

	private static final Pattern CPP_ARG = Pattern.compile("^\\s*(params_\\w+)\\.add_(input|output|inout)\\((\\w+)\\);");
	/** A tensor name bound to another's storage: a copy, a view or reshape, or a carry's reassignment. */
	private static final Pattern CPP_ALIAS = Pattern.compile(
			"^\\s*(?:const ChipTensor& |ChipTensor )?(\\w+) = (\\w+)(?:\\.(?:view|reshape|transpose)\\(.*)?;");

	/** Tasks of a chip orchestration's C++: each CoreTaskArgs block and the submit that ends it. */
	static Expected chipTasks(String code) {
		List<String> names = new ArrayList<>();
		List<List<String[]>> accesses = new ArrayList<>();
		Map<String, String> alias = new HashMap<>();
		Set<Integer> manual = new java.util.HashSet<>();
		java.util.Deque<Integer> manualScopes = new java.util.ArrayDeque<>();
		int depth = 0;
		String comment = null;
		for (String line : code.split("\n")) {
			String t = line.trim();
			if (t.startsWith("PTO2_SCOPE(PTO2ScopeMode::MANUAL)")) {
				manualScopes.push(depth);
			}
			depth += count(line, "{") - count(line, "}");
			while (!manualScopes.isEmpty() && depth <= manualScopes.peek()) {
				manualScopes.pop();
			}
			if (t.startsWith("// Task ") || t.startsWith("// Spmd ") || t.startsWith("// Group ")) {
				comment = t;
			} else if (t.startsWith("// Phase-fence barrier")) {
				comment = "barrier";
			}
			if (t.startsWith("CoreTaskArgs ")) {
				String name = comment.equals("barrier") ? "barrier"
						: comment.startsWith("// Task ") ? comment.substring(comment.indexOf(": ") + 2)
								: comment.substring(comment.indexOf(' ', 3) + 1, comment.indexOf(':'));
				names.add(name);
				accesses.add(new ArrayList<>());
				if (!manualScopes.isEmpty()) {
					manual.add(names.size() - 1);
				}
			}
			Matcher a = CPP_ARG.matcher(line);
			if (a.find()) {
				accesses.get(accesses.size() - 1).add(new String[] { root(alias, a.group(3)), a.group(2) });
			}
			Matcher v = CPP_ALIAS.matcher(line);
			if (v.find() && !v.group(2).startsWith("task_") && !v.group(2).equals("orch_args")) {
				alias.put(v.group(1), v.group(2));
			}
		}
		return new Expected(names, dependencies(accesses, manual));
	}

	private static final Pattern HOST_SUBMIT = Pattern.compile(
			"(?:_submit_chip|_submit_chip_group|orch\\.submit_next_level)\\(\\s*(?:orch, )?callables\\[\"([^\"]+)\"\\], (\\w+)|orch\\.submit_sub\\(sub_ids\\[\"([^\"]+)\"\\], (\\w+)");
	private static final Pattern HOST_ARG = Pattern.compile(
			"^\\s*(_ta_\\d+)\\.add_tensor\\(.*?(?:tensors\\[\"([^\"]+)\"\\]|\\.buffers\\[\"([^\"]+)\"\\]).*TensorArgType\\.(\\w+)\\)$");
	private static final Pattern HOST_GROUP = Pattern.compile("^\\s*(_group_args_\\d+)\\.append\\((_ta_\\d+)\\)");

	/** Tasks of host_orch.py: each submit, with the TaskArgs it passes (a group's: those appended to its list). */
	static Expected hostTasks(String code) {
		Map<String, List<String[]>> args = new LinkedHashMap<>();
		Map<String, String> groupMember = new HashMap<>();
		List<String> names = new ArrayList<>();
		List<List<String[]>> accesses = new ArrayList<>();
		for (String line : code.split("\n")) {
			Matcher a = HOST_ARG.matcher(line);
			if (a.find()) {
				String tensor = a.group(2) != null ? a.group(2) : "window " + a.group(3);
				String mode = switch (a.group(4)) {
				case "INPUT" -> "input";
				case "OUTPUT", "OUTPUT_EXISTING" -> "output";
				case "INOUT" -> "inout";
				default -> null;
				};
				if (mode != null) {
					args.computeIfAbsent(a.group(1), k -> new ArrayList<>()).add(new String[] { tensor, mode });
				}
			}
			Matcher g = HOST_GROUP.matcher(line);
			if (g.find()) {
				groupMember.put(g.group(1), g.group(2));
			}
			if (line.trim().startsWith("def ") || line.trim().startsWith("return ")) {
				continue;
			}
			Matcher s = HOST_SUBMIT.matcher(line);
			if (s.find()) {
				String name = s.group(1) != null ? s.group(1) : s.group(3);
				String ta = s.group(2) != null ? s.group(2) : s.group(4);
				names.add(name);
				accesses.add(args.getOrDefault(groupMember.getOrDefault(ta, ta), List.of()));
			}
		}
		return new Expected(names, dependencies(accesses, Set.of()));
	}

	private static String root(Map<String, String> alias, String name) {
		String n = name;
		for (int i = 0; i < 100 && alias.containsKey(n); i++) {
			n = alias.get(n);
		}
		return n;
	}

	/**
	 * The runtime's rule, from the text: reads wait for the last writer; writes for it and for readers
	 * since; a task in a manual scope waits for nothing it did not name (auto tracking is off there).
	 */
	private static Set<String> dependencies(List<List<String[]>> tasks, Set<Integer> manual) {
		Set<String> edges = new TreeSet<>();
		Map<String, Integer> writer = new HashMap<>();
		Map<String, List<Integer>> readers = new HashMap<>();
		for (int i = 0; i < tasks.size(); i++) {
			for (String[] a : manual.contains(i) ? List.<String[]>of() : tasks.get(i)) {
				Integer w = writer.get(a[0]);
				if (w != null && w < i) {
					edges.add(w + "->" + i);
				}
				if (!a[1].equals("input")) {
					for (int r : readers.getOrDefault(a[0], List.of())) {
						if (r < i) {
							edges.add(r + "->" + i);
						}
					}
				}
			}
			for (String[] a : tasks.get(i)) {
				if (a[1].equals("input")) {
					readers.computeIfAbsent(a[0], k -> new ArrayList<>()).add(i);
				} else {
					writer.put(a[0], i);
					readers.remove(a[0]);
				}
			}
		}
		return edges;
	}

	private static int count(String text, String what) {
		int n = 0;
		for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
			n++;
		}
		return n;
	}

	/** Renders a page in headless Chromium: the DOM after it loaded, and a screenshot. */
	private static Document render(Path page, String name) throws IOException, InterruptedException {
		Path profile = Files.createTempDirectory(work, "chromium");
		Path shots = Path.of("target", "screenshots");
		Files.createDirectories(shots);
		List<String> common = List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--hide-scrollbars", "--user-data-dir=" + profile);
		String dom = run(concat(common, "--dump-dom", page.toUri().toString()));
		run(concat(common, "--window-size=1100,900", "--screenshot=" + shots.resolve("task-graph-" + name + ".png").toAbsolutePath(),
				page.toUri().toString()));
		assertTrue(Files.size(shots.resolve("task-graph-" + name + ".png")) > 1000, "a screenshot of " + page);
		return Jsoup.parse(dom, page.toUri().toString());
	}

	private static List<String> concat(List<String> a, String... b) {
		List<String> out = new ArrayList<>(a);
		out.addAll(List.of(b));
		return out;
	}

	private static String run(List<String> cmd) throws IOException, InterruptedException {
		Path out = Files.createTempFile(work, "chromium", ".out");
		Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
		// a bound against a hang only: a page renders in about a second
		if (!p.waitFor(5, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			fail("chromium did not finish: " + cmd);
		}
		assertEquals(0, p.exitValue(), "chromium: " + cmd);
		return Files.readString(out, StandardCharsets.UTF_8);
	}

	/** Debian's chromium: in CI (CI=true) its absence fails the test, elsewhere it skips it. */
	private static Path chromium() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path c = Path.of(dir, "chromium");
			if (Files.isExecutable(c)) {
				return c;
			}
		}
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			fail("chromium is not installed (apt-get install chromium); CI must run the page tests (.ci/run installs it)");
		}
		Assumptions.abort("chromium is not installed (apt-get install chromium): page test skipped");
		return null;
	}
}
