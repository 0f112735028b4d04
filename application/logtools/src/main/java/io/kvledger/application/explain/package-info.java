/**
 * Why a job holds exactly its chunks: the token bound, each clamp, the cursor and the tier's answer,
 * computed from the fold of a log.
 */
package io.kvledger.application.explain;
