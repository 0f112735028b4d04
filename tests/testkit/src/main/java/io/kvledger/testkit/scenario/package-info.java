/**
 * A JUnit 5 dynamic-test factory that runs a folder of scenario files against their {@code
 * .expect.jsonl} (contract section 6).
 */
package io.kvledger.testkit.scenario;
