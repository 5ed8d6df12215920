package dev.burnbox.bench.report;

import java.awt.Color;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The one look of the benchmark reports' line charts: {@value #PANEL_WIDTH} x {@value
 * #PANEL_HEIGHT} panels, a logarithmic x axis, white backgrounds, one line of circles per series in
 * a colour its caller fixes, so a series keeps its colour in every panel.
 */
public final class LineCharts {
  /** A panel's width in pixels. */
  public static final int PANEL_WIDTH = 640;

  /** A panel's height in pixels. */
  public static final int PANEL_HEIGHT = 420;

  private LineCharts() {}

  /**
   * One panel.
   *
   * @param lines per line name, y by integer x, in the order they are drawn
   * @param colour the colour of a line, by its name
   */
  public static XYChart panel(
      String title,
      String xTitle,
      String yTitle,
      boolean logY,
      Map<String, TreeMap<Integer, Double>> lines,
      Function<String, Color> colour) {
    XYChart chart =
        new XYChartBuilder()
            .width(PANEL_WIDTH)
            .height(PANEL_HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(logY);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setLegendBackgroundColor(Color.WHITE);
    for (Map.Entry<String, TreeMap<Integer, Double>> line : lines.entrySet()) {
      List<Double> x = line.getValue().keySet().stream().map(Integer::doubleValue).toList();
      List<Double> y = List.copyOf(line.getValue().values());
      XYSeries series = chart.addSeries(line.getKey(), x, y);
      series.setMarker(SeriesMarkers.CIRCLE);
      Color color = colour.apply(line.getKey());
      series.setLineColor(color);
      series.setMarkerColor(color);
    }
    return chart;
  }
}
