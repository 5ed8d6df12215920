package dev.burnbox.server.mime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** {@link WindowsZones}: CLDR's mapping, every name of it known to this JDK. */
class WindowsZonesTest {
  @Test
  void everyWindowsNameOfTheResourceStandsForAZoneThisJdkKnows() throws IOException {
    String resource;
    try (InputStream in = WindowsZones.class.getResourceAsStream("windows-zones.tsv")) {
      resource = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    long names = resource.lines().filter(line -> !line.startsWith("#")).count();

    assertThat(names).isEqualTo(139); // CLDR 48's "001" entries
    assertThat(WindowsZones.size()).isEqualTo(names);
    assertThat(resource).contains("Unicode License v3", "cldr-core 48.2.0");
  }

  @Test
  void namesAreMatchedAsWindowsWritesThem() {
    assertThat(WindowsZones.zone("Pacific Standard Time"))
        .isEqualTo(ZoneId.of("America/Los_Angeles"));
    assertThat(WindowsZones.zone("W. Europe Standard Time")).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(WindowsZones.zone("AUS Eastern Standard Time"))
        .isEqualTo(ZoneId.of("Australia/Sydney"));
    assertThat(WindowsZones.zone("UTC")).isEqualTo(ZoneId.of("Etc/UTC"));
    assertThat(WindowsZones.zone("pacific standard time")).isNull();
    assertThat(WindowsZones.zone("Mars Standard Time")).isNull();
    assertThat(WindowsZones.zone("")).isNull();
  }
}
