// SPDX-License-Identifier: Apache-2.0
/**
 * bloomkit: Bloom filters for Java over the bloom C library
 * ({@code libbloomfilter}, by JNA). Filters are file-compatible with every
 * other bloom user (C, the CLI, Python, Node, Redis).
 *
 * <p>Start at {@link bloomkit.BloomFilter}; options in
 * {@link bloomkit.FilterOptions}; errors are {@link bloomkit.BloomException}.
 */
package bloomkit;
