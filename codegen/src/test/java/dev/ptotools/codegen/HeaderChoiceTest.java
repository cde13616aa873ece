package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.codegen.support.Gxx;
import dev.ptotools.codegen.support.Sources;

/**
 * The runtime header choice: by default orchestration_api.h with a compile-time fallback to
 * pto_orchestration_api.h (guarded for compilers without __has_include); a setting selects either
 * plain include.
 */
class HeaderChoiceTest {

	@TempDir
	Path tmp;

	private static String code(RuntimeHeader h) {
		return Sources.code(Sources.file(Sources.ok(Sources.resource("goldens/test_basic_structure.py"),
				CompileOptions.DEFAULT.withHeader(h)), ".cpp"));
	}

	@Test
	void defaultIsTheFallbackInclude() {
		assertEquals(RuntimeHeader.FALLBACK, CompileOptions.DEFAULT.header());
		String code = code(RuntimeHeader.FALLBACK);
		assertTrue(code.contains("#include <stdio.h>\n\n#if defined(__has_include)\n#if __has_include(\"orchestration_api.h\")\n"
				+ "#include \"orchestration_api.h\"\n#else\n#include \"pto_orchestration_api.h\"\n#endif\n#else\n"
				+ "#include \"pto_orchestration_api.h\"\n#endif\n\nextern \"C\" {"), code);
	}

	@Test
	void plainSettingsIncludeOneHeader() {
		String pto = code(RuntimeHeader.PTO_ORCHESTRATION_API);
		assertTrue(pto.contains("\n#include \"pto_orchestration_api.h\"\n\nextern"), pto);
		assertFalse(pto.contains("__has_include"), pto);
		String renamed = code(RuntimeHeader.ORCHESTRATION_API);
		assertTrue(renamed.contains("\n#include \"orchestration_api.h\"\n\nextern"), renamed);
		assertFalse(renamed.contains("pto_orchestration_api.h"), renamed);
	}

	@Test
	void headerSettingParses() {
		assertEquals(RuntimeHeader.FALLBACK, RuntimeHeader.parse("fallback"));
		assertEquals(RuntimeHeader.PTO_ORCHESTRATION_API, RuntimeHeader.parse("pto"));
		assertEquals(RuntimeHeader.ORCHESTRATION_API, RuntimeHeader.parse("plain"));
	}

	private String check(String code, String extra, List<Path> includes) throws Exception {
		Path f = tmp.resolve("f" + System.nanoTime() + ".cpp");
		Files.writeString(f, code + extra);
		return Gxx.syntaxCheck(includes, List.of(f));
	}

	@Test
	void fallbackPicksTheRenamedHeaderWhenItExistsAndTheOldOneOtherwise() throws Exception {
		assumeTrue(Gxx.find().isPresent(), "g++ is not on PATH: the header fallback compile check is skipped");
		String code = code(RuntimeHeader.FALLBACK);
		String renamed = "\n#ifndef PTO_STUB_RENAMED_HEADER\n#error \"expected orchestration_api.h\"\n#endif\n";
		String old = "\n#ifdef PTO_STUB_RENAMED_HEADER\n#error \"expected pto_orchestration_api.h\"\n#endif\n";
		assertEquals("", check(code, renamed, List.of(Gxx.resource("stub-renamed"), Gxx.resource("stub"))));
		assertEquals("", check(code, old, List.of(Gxx.resource("stub"))));
	}

	@Test
	void plainRenamedHeaderCompilesAgainstTheRenamedStub() throws Exception {
		assumeTrue(Gxx.find().isPresent(), "g++ is not on PATH: the header compile check is skipped");
		assertEquals("", check(code(RuntimeHeader.ORCHESTRATION_API), "", List.of(Gxx.resource("stub-renamed"))));
	}
}
