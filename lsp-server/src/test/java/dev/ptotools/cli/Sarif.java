package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/**
 * Checks a SARIF log against the official SARIF 2.1.0 schema (a verbatim copy in the test resources)
 * and against what GitHub code scanning requires on ingestion.
 */
final class Sarif {

	private static final ObjectMapper MAPPER = new ObjectMapper();
	private static volatile JsonSchema schema;

	private Sarif() {
	}

	static JsonSchema schema() {
		if (schema == null) {
			try (InputStream in = Sarif.class.getResourceAsStream("/sarif/sarif-schema-2.1.0.json")) {
				assertNotNull(in, "sarif-schema-2.1.0.json in the test resources");
				schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(in);
			} catch (IOException e) {
				throw new UncheckedIOException(e);
			}
		}
		return schema;
	}

	/** Validates a log; returns it parsed. */
	static JsonNode assertValid(String sarif) {
		JsonNode log;
		try {
			log = MAPPER.readTree(sarif);
		} catch (IOException e) {
			throw new AssertionError("not JSON: " + e.getMessage() + "\n" + sarif, e);
		}
		Set<ValidationMessage> errors = schema().validate(log);
		assertTrue(errors.isEmpty(), () -> "SARIF 2.1.0 schema violations: "
				+ errors.stream().map(ValidationMessage::toString).collect(Collectors.joining("\n")));
		assertGithubIngestible(log);
		return log;
	}

	/** GitHub code scanning's own rules on top of the schema. */
	static void assertGithubIngestible(JsonNode log) {
		assertEquals("2.1.0", log.get("version").asText());
		assertTrue(log.get("$schema").asText().startsWith("https://"), "$schema is an absolute URI");
		for (JsonNode run : log.get("runs")) {
			JsonNode driver = run.get("tool").get("driver");
			assertFalse(driver.get("name").asText().isBlank(), "driver name");
			assertTrue(driver.has("version"), "driver version");
			assertTrue(!driver.has("informationUri") || driver.get("informationUri").asText().matches("https?://.+"),
					"an informationUri only when one is configured");
			Map<String, Integer> index = new HashMap<>();
			int i = 0;
			for (JsonNode rule : driver.get("rules")) {
				String id = rule.get("id").asText();
				assertTrue(id.matches("PTO\\d{3}"), id);
				assertEquals(null, index.put(id, i++), "rule ids are unique: " + id);
				assertTrue(rule.get("shortDescription").get("text").asText().length() > 0, id);
				assertTrue(rule.get("fullDescription").get("text").asText().length() > 0, id);
				assertTrue(!rule.has("helpUri") || rule.get("helpUri").asText().matches("https?://.+/" + id + "\\.md"),
						"a helpUri only when the pages' home is configured: " + rule);
				assertTrue(rule.has("help") && rule.get("help").get("text").asText().length() > 0, id);
				assertTrue(Set.of("error", "warning", "note", "none")
						.contains(rule.get("defaultConfiguration").get("level").asText()), id);
			}
			for (JsonNode result : run.get("results")) {
				String ruleId = result.get("ruleId").asText();
				assertTrue(index.containsKey(ruleId), "ruleId " + ruleId + " is a driver rule");
				assertEquals(index.get(ruleId).intValue(), result.get("ruleIndex").asInt(), "ruleIndex of " + ruleId);
				assertTrue(Set.of("error", "warning", "note").contains(result.get("level").asText()));
				assertFalse(result.get("message").get("text").asText().isBlank());
				assertTrue(result.get("partialFingerprints").size() > 0, "partial fingerprints");
				assertEquals(1, result.get("locations").size(), "one primary location");
				for (JsonNode loc : result.get("locations")) {
					assertPhysical(loc.get("physicalLocation"));
				}
				if (result.has("relatedLocations")) {
					for (JsonNode loc : result.get("relatedLocations")) {
						assertPhysical(loc.get("physicalLocation"));
					}
				}
				if (result.has("fixes")) {
					for (JsonNode fix : result.get("fixes")) {
						for (JsonNode change : fix.get("artifactChanges")) {
							assertRelative(change.get("artifactLocation"));
							for (JsonNode rep : change.get("replacements")) {
								assertRegion(rep.get("deletedRegion"));
							}
						}
					}
				}
			}
		}
	}

	private static void assertPhysical(JsonNode phys) {
		assertRelative(phys.get("artifactLocation"));
		assertRegion(phys.get("region"));
	}

	private static void assertRelative(JsonNode artifact) {
		String uri = artifact.get("uri").asText();
		assertFalse(uri.startsWith("/") || uri.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*"), "relative uri: " + uri);
		assertFalse(uri.contains(" ") || uri.contains("\\"), "encoded uri: " + uri);
		assertEquals("%SRCROOT%", artifact.get("uriBaseId").asText());
	}

	private static void assertRegion(JsonNode r) {
		int startLine = r.get("startLine").asInt();
		int startColumn = r.get("startColumn").asInt();
		int endLine = r.get("endLine").asInt();
		int endColumn = r.get("endColumn").asInt();
		assertTrue(startLine >= 1 && startColumn >= 1, "1-based region: " + r);
		assertTrue(endLine > startLine || (endLine == startLine && endColumn >= startColumn), "ordered region: " + r);
	}
}
