package dev.ptotools.analyzer.report;

/**
 * The tool as SARIF names it.
 *
 * @param name the driver name ("pto")
 * @param version the tool's version
 * @param informationUri the tool's home page (absolute URI)
 * @param docsUri the folder of the rule pages (absolute URI ending in '/'): helpUri is docsUri + "PTO105.md"
 */
public record ToolInfo(String name, String version, String informationUri, String docsUri) {

	public ToolInfo {
		if (!docsUri.endsWith("/")) {
			docsUri = docsUri + "/";
		}
	}
}
