package dev.burnbox.server.mime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

/**
 * The IANA zone a Windows time-zone name stands for ({@code Pacific Standard Time} is {@code
 * America/Los_Angeles}), for the TZIDs of Outlook and Exchange invites: CLDR's windowsZones
 * mapping, its territory "001" entries, read from {@code windows-zones.tsv} beside this class (its
 * header says from which CLDR version and how it was made). A name matches as Windows writes it,
 * case and all. A zone this JDK's time-zone data lacks is left out, and so is every name if the
 * resource cannot be read: never throws. Read once, when first used; immutable and thread-safe.
 */
final class WindowsZones {
  private static final Map<String, ZoneId> ZONES = read("windows-zones.tsv");

  private WindowsZones() {}

  /** The zone Windows names {@code name}, or null if it is no Windows zone name known here. */
  static ZoneId zone(String name) {
    return ZONES.get(name);
  }

  /** How many names are known (139 in CLDR 48). */
  static int size() {
    return ZONES.size();
  }

  /** The names and zones of {@code resource}: lines of a name, a tab and a zone; # comments. */
  private static Map<String, ZoneId> read(String resource) {
    String text;
    try (InputStream in = WindowsZones.class.getResourceAsStream(resource)) {
      text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      text = "";
    }
    Map<String, ZoneId> zones = new HashMap<>(256);
    for (String line : text.split("\n")) {
      int tab = line.indexOf('\t');
      if (line.startsWith("#") || tab < 0) {
        continue;
      }
      try {
        zones.put(line.substring(0, tab), ZoneId.of(line.substring(tab + 1).strip()));
      } catch (DateTimeException e) {
        // a zone newer than this JDK's time-zone data: its name stays unknown
      }
    }
    return Map.copyOf(zones);
  }
}
