package dev.ptotools.analyzer.report;

/**
 * The tool as SARIF names it.
 *
 * @param name the driver name ("pto")
 * @param version the tool's version
 * @param informationUri the tool's home page (absolute URI), or null when none is configured
 * @param docsUri the folder of the rule pages (absolute URI ending in '/'): helpUri is docsUri + "PTO105.md";
 *        null when none is configured (SARIF then carries each page inline only, as help.markdown)
 */
public record ToolInfo(String name, String version, String informationUri, String docsUri) {

	public ToolInfo {
		if (docsUri != null && !docsUri.endsWith("/")) {
			docsUri = docsUri + "/";
		}
	}
}
