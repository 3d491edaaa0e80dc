package io.flashsale.bench;

import java.util.Locale;

/** A few SVG elements written as text: what {@link Chart} draws with. */
final class Svg {

    static final String FONT = "Helvetica, Arial, sans-serif";

    private final StringBuilder body = new StringBuilder();

    /** Opens a group; {@code id} may be null. */
    Svg group(String id, String cssClass) {
        body.append("<g");
        if (id != null) {
            body.append(" id=\"").append(escape(id)).append('"');
        }
        body.append(" class=\"").append(escape(cssClass)).append("\">\n");
        return this;
    }

    Svg end() {
        body.append("</g>\n");
        return this;
    }

    Svg text(double x, double y, String text, String attributes) {
        body.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" ")
                .append(attributes)
                .append('>')
                .append(escape(text))
                .append("</text>\n");
        return this;
    }

    Svg rect(double x, double y, double width, double height, String fill, String cssClass) {
        body.append("<rect class=\"")
                .append(cssClass)
                .append("\" x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" width=\"")
                .append(num(Math.max(0, width)))
                .append("\" height=\"")
                .append(num(height))
                .append("\" fill=\"")
                .append(fill)
                .append("\"/>\n");
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String cssClass, String attributes) {
        body.append("<line class=\"")
                .append(cssClass)
                .append("\" x1=\"")
                .append(num(x1))
                .append("\" y1=\"")
                .append(num(y1))
                .append("\" x2=\"")
                .append(num(x2))
                .append("\" y2=\"")
                .append(num(y2))
                .append("\" ")
                .append(attributes)
                .append("/>\n");
        return this;
    }

    Svg circle(double x, double y, double r, String fill, String cssClass) {
        body.append("<circle class=\"")
                .append(cssClass)
                .append("\" cx=\"")
                .append(num(x))
                .append("\" cy=\"")
                .append(num(y))
                .append("\" r=\"")
                .append(num(r))
                .append("\" fill=\"")
                .append(fill)
                .append("\"/>\n");
        return this;
    }

    Svg polyline(double[] xs, double[] ys, String stroke, String cssClass) {
        body.append("<polyline class=\"").append(cssClass).append("\" fill=\"none\" stroke=\"");
        body.append(stroke).append("\" stroke-width=\"2\" points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(num(xs[i])).append(',').append(num(ys[i])).append(' ');
        }
        body.append("\"/>\n");
        return this;
    }

    /** The whole document: a white background (dark page themes), then what was drawn. */
    String document(int width, int height, String title) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        .formatted(width, height, width, height)
                + " font-family=\"%s\" font-size=\"12\">\n".formatted(FONT)
                + "<title>" + escape(title) + "</title>\n"
                + "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n".formatted(width, height)
                + body
                + "</svg>\n";
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
