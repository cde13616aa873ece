package dev.ptotools.analyzer.facts;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Script;

/** A script's argparse options fold to what {@code python script.py} gets: their defaults. */
class ArgparseFoldingTest {

	/** The values the names hold at the end of main(). */
	private static Map<String, Object> atEndOfMain(String main) {
		ModuleIR module = analyze(IMPORTS + main).module();
		Script.Def def = module.script().named("main").get(0);
		return new ScriptScope(module).at(def, def.span().end(), Map.of());
	}

	private static Object option(Map<String, Object> env, String name) {
		return ((Values.Namespace) env.get("args")).values().get(name);
	}

	@Test
	void eachOptionIsItsDefaultByDestination() {
		Map<String, Object> env = atEndOfMain("""
				import argparse


				def main():
				    parser = argparse.ArgumentParser(description="d")
				    parser.add_argument("-p", "--platform", default="a2a3", choices=["a2a3", "a5"])
				    parser.add_argument("-d", "--device-id", type=int, default="3")
				    parser.add_argument("--scale", type=float, default="0.5")
				    parser.add_argument("--swimlane", action="store_true")
				    parser.add_argument("--no-check", dest="check", action="store_false")
				    parser.add_argument("--ranks", type=int)
				    parser.add_argument("-n")
				    args = parser.parse_args()
				    platform = args.platform
				""");
		assertEquals("a2a3", env.get("platform"));
		assertEquals("a2a3", option(env, "platform"));
		assertEquals(3L, option(env, "device_id"), "a string default goes through type=int, as argparse does");
		assertEquals(0.5, option(env, "scale"));
		assertEquals(false, option(env, "swimlane"));
		assertEquals(true, option(env, "check"));
		assertEquals(Values.None.INSTANCE, option(env, "ranks"));
		assertEquals(Values.None.INSTANCE, option(env, "n"), "a short option alone names its destination");
	}

	@Test
	void setDefaultsAndParseKnownArgsAndAnAliasedImport() {
		Map<String, Object> env = atEndOfMain("""
				import argparse as ap


				def main():
				    parser = ap.ArgumentParser()
				    parser.add_argument("--platform", default="a2a3")
				    parser.set_defaults(platform="a5sim")
				    args, rest = parser.parse_known_args()
				""");
		assertEquals("a5sim", option(env, "platform"));
	}

	@Test
	void whatARunWithoutArgumentsLacksIsUnknown() {
		Map<String, Object> env = atEndOfMain("""
				from argparse import ArgumentParser


				def main():
				    parser = ArgumentParser()
				    parser.add_argument("platform")
				    parser.add_argument("--device", default=device_from_env())
				    parser.add_argument("--mode", nargs="?", default="fast")
				    args = parser.parse_args()
				    platform = args.platform
				""");
		Values.Namespace args = (Values.Namespace) env.get("args");
		assertFalse(args.values().containsKey("platform"), "a required positional argument");
		assertFalse(env.containsKey("platform"));
		assertFalse(args.values().containsKey("device"), "a default that does not fold");
		assertEquals("fast", args.values().get("mode"));
	}

	@Test
	void aParserFromSomethingElseIsNotFolded() {
		Map<String, Object> env = atEndOfMain("""
				def main():
				    parser = make_parser()
				    parser.add_argument("--platform", default="a2a3")
				    args = parser.parse_args()
				""");
		assertFalse(env.containsKey("args"));
	}
}
