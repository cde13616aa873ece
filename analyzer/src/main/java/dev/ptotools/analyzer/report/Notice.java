package dev.ptotools.analyzer.report;

/**
 * Something that went wrong around the analysis (a file that cannot be read): not a finding, but a
 * SARIF tool execution notification and a line on standard error.
 *
 * @param path the file concerned, as reports print it, or null
 * @param message what went wrong
 */
public record Notice(String path, String message) {
}
