package dev.burnbox.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryPlanTest {
  private static final long MIB = 1 << 20;

  @Test
  void limitsThatFitTheHeapGiveNoWarning() {
    // the defaults (256 MiB store, 2000 connections) in a 1 GiB heap with a quarter in flight
    assertThat(new MemoryPlan(256 * MIB, 256 * MIB, 2000, 1024 * MIB).warning()).isEmpty();
  }

  @Test
  void connectionsThatCannotFitTheHeapAreNamedInTheWarning() {
    // the long attack run's first try: 6,000 connections in 160 MiB died of OutOfMemoryError
    MemoryPlan plan = new MemoryPlan(64 * MIB, 40 * MIB, 6000, 160 * MIB);
    assertThat(plan.worstCaseBytes()).isGreaterThan(160 * MIB);
    assertThat(plan.warning())
        .hasValueSatisfying(
            warning ->
                assertThat(warning).contains("6000 connections").contains("--max-connections"));
  }

  @Test
  void theAutomaticStoreBudgetLeavesTheWorstCaseAtThreeQuartersOfTheHeap() {
    // the defaults in -Xmx2g: a quarter of the heap in flight, 2,000 connections of 48 KiB, 32 MiB
    // and the web's read budget (32 MiB: 1/64 of the heap)
    long budget = MemoryPlan.storeBudget(512 * MIB, 2000, 2048 * MIB);
    assertThat(budget).isEqualTo(1536 * MIB - 64 * MIB - 512 * MIB - 2000 * 48 * 1024);
    assertThat(budget / MIB).isEqualTo(866);
    assertThat(new MemoryPlan(budget, 512 * MIB, 2000, 2048 * MIB).worstCaseBytes())
        .isEqualTo(1536 * MIB);
    assertThat(new MemoryPlan(budget, 512 * MIB, 2000, 2048 * MIB).warning())
        .as("the worst case then fits the heap")
        .isEmpty();
    assertThat(MemoryPlan.storeBudget(256 * MIB, 2000, 256 * MIB))
        .as("a heap the other limits already fill still gets the least budget")
        .isEqualTo(MemoryPlan.MIN_STORE_BYTES);
  }

  @Test
  void theRedisStoresBudgetIsNotCountedInTheHeap() {
    ServiceSettings.Builder settings = ServiceSettings.builder().with("--store-max-bytes=4g");
    assertThat(MemoryPlan.of(settings.build()).storeBytes()).isEqualTo(4096 * MIB);
    assertThat(MemoryPlan.of(settings.with("--store=redis").build()))
        .extracting(MemoryPlan::storeBytes)
        .isEqualTo(0L);
  }
}
