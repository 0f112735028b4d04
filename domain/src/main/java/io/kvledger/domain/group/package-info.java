/**
 * KV cache groups' shared shape: a per-group field ({@code PerGroup}), one list per group in group
 * order, the flat list of sections 2-3 when there is one group.
 */
package io.kvledger.domain.group;
