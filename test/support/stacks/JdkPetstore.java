// The JDK's own com.sun.net.httpserver.HttpServer (Debian's OpenJDK 17) at its defaults, run
// from source (java JdkPetstore.java). The JDK has no JSON parser: a small recursive-descent
// one below, as such services carry. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1
// leaves Content-Type off the answers (HttpServer sets none), where section 4 wants
// application/json.
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

public class JdkPetstore {
  static final String KEY = System.getenv("PETSTORE_KEY");
  static final boolean FAULT = "1".equals(System.getenv("PETSTORE_FAULT"));
  static final List<String> STORE = new ArrayList<>();

  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("PORT"))), 0);
    server.createContext("/", JdkPetstore::handle);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    if (!FAULT) exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  static void fail(HttpExchange exchange, int status, String code, String message) throws IOException {
    send(exchange, status, "{\"code\":" + quote(code) + ",\"message\":" + quote(message) + ",\"status\":" + status + "}");
  }

  static void handle(HttpExchange exchange) throws IOException {
    byte[] raw = exchange.getRequestBody().readAllBytes();
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    String[] parts = header == null ? new String[] {""} : header.split(" ", 2);
    if (!(parts.length == 2 && parts[0].equalsIgnoreCase("bearer") && parts[1].equals(KEY))) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"petstore\"" + (header == null ? "" : ", error=\"invalid_token\""));
      fail(exchange, 401, "unauthorized", "a valid API key is required");
      return;
    }
    String path = exchange.getRequestURI().getRawPath();
    String method = exchange.getRequestMethod();
    if (path.equals("/v1/categories") && method.equals("GET")) {
      synchronized (STORE) {
        send(exchange, 200, "[" + String.join(",", STORE) + "]");
      }
    } else if (path.equals("/v1/categories") && method.equals("POST")) {
      Object body;
      try {
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        body = new Json(text).document();
      } catch (IllegalArgumentException | CharacterCodingException problem) {
        fail(exchange, 400, "invalid_json", String.valueOf(problem.getMessage()));
        return;
      }
      if (!(body instanceof Map<?, ?> map) || !(map.get("name") instanceof String name)) {
        fail(exchange, 400, "invalid_body", "name is required and must be a string");
        return;
      }
      if (map.containsKey("description") && !(map.get("description") instanceof String)) {
        fail(exchange, 400, "invalid_body", "description must be a string");
        return;
      }
      String category;
      synchronized (STORE) {
        category = "{\"id\":" + (STORE.size() + 1) + ",\"name\":" + quote(name) + (map.containsKey("description") ? ",\"description\":" + quote((String) map.get("description")) : "") + "}";
        STORE.add(category);
      }
      send(exchange, 201, category);
    } else if (path.startsWith("/v1/pets/") || path.equals("/v1/store/orders")) {
      fail(exchange, 501, "not_implemented", "outside the categories interface");
    } else {
      fail(exchange, 404, "not_found", "no such resource");
    }
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    return out.append('"').toString();
  }

  /** RFC 8259 JSON, recursive descent: a deep body overflows its stack, as such parsers do. */
  static final class Json {
    final String text;
    int at;

    Json(String text) {
      this.text = text;
    }

    Object document() {
      Object value = value();
      space();
      if (at != text.length()) throw new IllegalArgumentException("text after the value at " + at);
      return value;
    }

    void space() {
      while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    char next() {
      if (at >= text.length()) throw new IllegalArgumentException("unexpected end");
      return text.charAt(at);
    }

    void expect(String word) {
      if (!text.startsWith(word, at)) throw new IllegalArgumentException("expected " + word + " at " + at);
      at += word.length();
    }

    Object value() {
      space();
      char c = next();
      switch (c) {
        case '{': {
          at++;
          Map<String, Object> map = new LinkedHashMap<>();
          space();
          if (next() == '}') { at++; return map; }
          while (true) {
            space();
            if (next() != '"') throw new IllegalArgumentException("expected a member name at " + at);
            String name = string();
            space();
            expect(":");
            map.put(name, value());
            space();
            if (next() == ',') { at++; continue; }
            expect("}");
            return map;
          }
        }
        case '[': {
          at++;
          List<Object> list = new ArrayList<>();
          space();
          if (next() == ']') { at++; return list; }
          while (true) {
            list.add(value());
            space();
            if (next() == ',') { at++; continue; }
            expect("]");
            return list;
          }
        }
        case '"': return string();
        case 't': expect("true"); return Boolean.TRUE;
        case 'f': expect("false"); return Boolean.FALSE;
        case 'n': expect("null"); return null;
        default: return number();
      }
    }

    String string() {
      at++;
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        at++;
        if (c == '"') return out.toString();
        if (c < 0x20) throw new IllegalArgumentException("a control character in a string at " + at);
        if (c != '\\') { out.append(c); continue; }
        char e = next();
        at++;
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (at + 4 > text.length()) throw new IllegalArgumentException("a short escape at " + at);
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            at += 4;
          }
          default -> throw new IllegalArgumentException("a bad escape at " + at);
        }
      }
    }

    Object number() {
      int start = at;
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?").matcher(text).region(at, text.length());
      if (!m.lookingAt()) throw new IllegalArgumentException("unexpected character at " + start);
      at = m.end();
      return new java.math.BigDecimal(text.substring(start, at));
    }
  }
}
