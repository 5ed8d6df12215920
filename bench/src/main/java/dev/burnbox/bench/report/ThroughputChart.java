package dev.burnbox.bench.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

/**
 * Draws the throughput chart: one XChart panel per (term set kind, text), MB/s against term count
 * on log-log axes, one line per implementation; the panels are tiled into one PNG, two per row.
 */
public final class ThroughputChart {
  private static final int PANEL_WIDTH = LineCharts.PANEL_WIDTH;
  private static final int PANEL_HEIGHT = LineCharts.PANEL_HEIGHT;
  private static final int COLUMNS = 2;
  // One fixed colour per implementation, so a line has the same colour in every panel.
  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
    new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
    new Color(0xbcbd22), new Color(0x17becf)
  };

  private ThroughputChart() {}

  /**
   * One data point.
   *
   * @param impl implementation, one line
   * @param panel panel title, e.g. {@code hitHeavy terms, spam text}
   * @param terms x
   * @param megabytesPerSecond y
   */
  public record Point(String impl, String panel, int terms, double megabytesPerSecond) {}

  /** Writes the chart of {@code points} to {@code png}; panels and lines in first-seen order. */
  public static void write(List<Point> points, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Map<String, Map<String, TreeMap<Integer, Double>>> panels = new LinkedHashMap<>();
    List<String> impls = points.stream().map(Point::impl).distinct().toList();
    for (Point p : points) {
      panels
          .computeIfAbsent(p.panel(), k -> new LinkedHashMap<>())
          .computeIfAbsent(p.impl(), k -> new TreeMap<>())
          .put(p.terms(), p.megabytesPerSecond());
    }
    if (panels.isEmpty()) {
      throw new IllegalArgumentException("no throughput results to draw");
    }
    int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
    int columns = Math.min(COLUMNS, panels.size());
    BufferedImage image =
        new BufferedImage(columns * PANEL_WIDTH, rows * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    int i = 0;
    for (Map.Entry<String, Map<String, TreeMap<Integer, Double>>> panel : panels.entrySet()) {
      BufferedImage drawn =
          BitmapEncoder.getBufferedImage(panel(panel.getKey(), panel.getValue(), impls));
      g.drawImage(drawn, (i % COLUMNS) * PANEL_WIDTH, (i / COLUMNS) * PANEL_HEIGHT, null);
      i++;
    }
    g.dispose();
    if (png.toAbsolutePath().getParent() != null) {
      Files.createDirectories(png.toAbsolutePath().getParent());
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static XYChart panel(
      String title, Map<String, TreeMap<Integer, Double>> lines, List<String> impls) {
    return LineCharts.panel(
        title,
        "terms",
        "MB/s (10^6 chars/s)",
        true,
        lines,
        impl -> PALETTE[impls.indexOf(impl) % PALETTE.length]);
  }
}
