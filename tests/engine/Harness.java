/*
 * Test harness that drives the real VASSAL engine (Vengine.jar) headlessly
 * enough for automated tests.  Our own code: it only calls VASSAL's public
 * API; it is compiled at test time against a Vengine.jar fetched into a cache
 * (see tests/engine/engine.py) and is never shipped with the engine.
 *
 * Usage (one JVM per call, JSON on stdout, last line):
 *   java Harness load  MODULE.vmod
 *   java Harness where MODULE.vmod POINTS.json [MAPNAME]
 *   java Harness save  MODULE.vmod SAVE.vsav
 *
 * System properties:
 *   VASSAL.conf          VASSAL's configuration dir (prefs, errorLog); a temp
 *                        dir is made when unset.
 *   harness.timeout      seconds before the watchdog gives up (default 60).
 *
 * Must run with a display (Xvfb) and without network (unshare -n): when the
 * engine shows an error dialog it may try to reach its home site.
 */

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Frame;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Window;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.swing.AbstractButton;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JMenuBar;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

public final class Harness {

  // ---------------------------------------------------------------- output

  private static final List<String> errors = new ArrayList<>();
  private static final Map<String, Object> result = new LinkedHashMap<>();
  private static Path confDir;
  private static Path logFile;
  private static volatile boolean done = false;

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: Harness load|where|save MODULE.vmod [FILE] [MAP]");
      System.exit(2);
    }
    final String cmd = args[0];
    result.put("command", cmd);
    result.put("ok", Boolean.FALSE);
    result.put("errors", errors);

    setUpConfAndLogging();
    startWatchdog(cmd);

    try {
      // VASSAL classes are touched only from here on, after logging is set up
      final Throwable[] failure = new Throwable[1];
      SwingUtilities.invokeAndWait(() -> {
        try {
          Engine.init(args[1]);
          switch (cmd) {
          case "load":
            Engine.load();
            break;
          case "where":
            if (args.length < 3) throw new IllegalArgumentException("where needs POINTS.json");
            Engine.where(Path.of(args[2]), args.length > 3 ? args[3] : null);
            break;
          case "save":
            if (args.length < 3) throw new IllegalArgumentException("save needs SAVE.vsav");
            Engine.save(Path.of(args[2]));
            break;
          default:
            throw new IllegalArgumentException("unknown command " + cmd);
          }
        }
        catch (Throwable t) {
          failure[0] = t;
        }
      });
      if (failure[0] != null) {
        errors.add("exception: " + stackTrace(failure[0]));
      }
      // let invokeLater'd error dialogs and log messages settle
      SwingUtilities.invokeAndWait(() -> { });
      SwingUtilities.invokeAndWait(() -> { });
    }
    catch (InvocationTargetException e) {
      errors.add("exception: " + stackTrace(e.getCause()));
    }
    finish(0);
  }

  private static void setUpConfAndLogging() throws Exception {
    final String conf = System.getProperty("VASSAL.conf");
    if (conf == null) {
      confDir = Files.createTempDirectory("vassal_conf_");
      System.setProperty("VASSAL.conf", confDir.toString());
    }
    else {
      confDir = Path.of(conf);
      Files.createDirectories(confDir);
    }
    // Our own logback configuration: VASSAL's bundled one needs janino for
    // its <if> blocks, which Debian's logback does not ship with.
    logFile = confDir.resolve("errorLog");
    final Path cfg = confDir.resolve("harness-logback.xml");
    final String xml =
      "<configuration>\n" +
      "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">\n" +
      "    <file>" + xmlEscape(logFile.toString()) + "</file>\n" +
      "    <encoder><charset>UTF-8</charset>\n" +
      "      <pattern>%date [%thread] %-5level %logger - %msg%n</pattern>\n" +
      "    </encoder>\n" +
      "  </appender>\n" +
      "  <root level=\"info\"><appender-ref ref=\"FILE\" /></root>\n" +
      "</configuration>\n";
    Files.writeString(cfg, xml, StandardCharsets.UTF_8);
    System.setProperty("logback.configurationFile", cfg.toString());
  }

  private static void startWatchdog(String cmd) {
    final double secs = Double.parseDouble(System.getProperty("harness.timeout", "60"));
    final Thread t = new Thread(() -> {
      try {
        Thread.sleep((long) (secs * 1000));
      }
      catch (InterruptedException e) {
        return;
      }
      if (!done) {
        errors.add("harness watchdog: '" + cmd + "' did not finish within " + secs + " s" +
          " (a modal dialog is probably open; see 'dialogs')");
        finish(3);
      }
    }, "harness-watchdog");
    t.setDaemon(true);
    t.start();
  }

  private static synchronized void finish(int code) {
    if (done) return;
    done = true;
    final List<String> log = readLog();
    result.put("log", log);
    for (final String entry : log) {
      if (entry.matches("(?s)^\\S+ \\S+ \\[[^\\]]*\\] (WARN|ERROR) .*")) {
        errors.add(entry);
      }
    }
    final List<String> dialogs = openDialogs();
    result.put("dialogs", dialogs);
    final List<String> notes = new ArrayList<>();
    for (final String d : dialogs) {
      if (isSnapshotVersionWarning(d)) {
        notes.add("ignored: " + d);
      }
      else {
        errors.add("dialog: " + d);
      }
    }
    result.put("notes", notes);
    if (code == 0 && errors.isEmpty()) {
      result.put("ok", Boolean.TRUE);
    }
    final StringBuilder sb = new StringBuilder();
    Json.write(sb, result);
    System.out.println();
    System.out.println(sb);
    System.out.flush();
    Runtime.getRuntime().halt(code);
  }

  /**
   * The engine is a 3.6.0 *snapshot*; a module written for "3.6.0" makes it
   * warn that the module is newer than itself.  That one warning is expected.
   */
  static boolean isSnapshotVersionWarning(String dialog) {
    final Matcher m = Pattern.compile(
      "created using version (\\S+) of VASSAL\\. You are using version (\\S+?)-SNAPSHOT").matcher(dialog);
    return dialog.startsWith("[Version Mismatch]") && m.find() && m.group(1).equals(m.group(2));
  }

  private static List<String> readLog() {
    final List<String> entries = new ArrayList<>();
    try {
      if (logFile == null || !Files.exists(logFile)) return entries;
      final Pattern start = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d");
      StringBuilder cur = null;
      for (final String line : Files.readAllLines(logFile, StandardCharsets.UTF_8)) {
        if (start.matcher(line).find() || cur == null) {
          if (cur != null) entries.add(cur.toString());
          cur = new StringBuilder(line);
        }
        else {
          cur.append('\n').append(line);
        }
      }
      if (cur != null) entries.add(cur.toString());
    }
    catch (Exception e) {
      entries.add("harness: cannot read error log: " + e);
    }
    return entries;
  }

  /** Texts of the visible dialogs (error dialogs, option panes, wizards). */
  private static List<String> openDialogs() {
    final List<String> out = new ArrayList<>();
    try {
      for (final Window w : Window.getWindows()) {
        if (!w.isShowing() || !(w instanceof Dialog)) continue;
        final StringBuilder sb = new StringBuilder();
        sb.append('[').append(((Dialog) w).getTitle()).append("] ");
        collectText(w, sb);
        String text = sb.toString().trim().replaceAll("\\s+", " ");
        if (text.length() > 600) text = text.substring(0, 600) + " ...";
        out.add(text);
      }
    }
    catch (Throwable t) {
      out.add("harness: cannot list dialogs: " + t);
    }
    return out;
  }

  private static void collectText(Component c, StringBuilder sb) {
    if (c instanceof JOptionPane && ((JOptionPane) c).getMessage() instanceof String) {
      sb.append((String) ((JOptionPane) c).getMessage()).append(' ');
    }
    else if (c instanceof JLabel) {
      final String s = ((JLabel) c).getText();
      if (s != null && !s.isBlank()) sb.append(s).append(' ');
    }
    else if (c instanceof JTextComponent) {
      final String s = ((JTextComponent) c).getText();
      if (s != null && !s.isBlank()) sb.append(s.length() > 2000 ? s.substring(0, 2000) : s).append(' ');
    }
    else if (c instanceof AbstractButton || c instanceof JMenuBar) {
      return;
    }
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) collectText(k, sb);
    }
  }

  static String stackTrace(Throwable t) {
    final StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    final String[] lines = sw.toString().split("\n");
    final StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.length && i < 25; i++) {
      if (i > 0) sb.append('\n');
      sb.append(lines[i].stripTrailing());
    }
    return sb.toString();
  }

  private static String xmlEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  // ---------------------------------------------------------------- engine

  /** Everything that touches VASSAL classes, so they load after logging set-up. */
  static final class Engine {
    static VASSAL.build.GameModule module;

    static void init(String modulePath) throws Exception {
      final File f = new File(modulePath);
      if (!f.isFile()) throw new IllegalArgumentException("no such module file: " + modulePath);
      VASSAL.Info.setConfig(new VASSAL.launch.StandardConfig());
      new VASSAL.launch.StartUp().startErrorLog();
      Thread.setDefaultUncaughtExceptionHandler((th, ex) ->
        errors.add("uncaught exception in " + th.getName() + ": " + stackTrace(ex)));
      // Player's PlayerMenuManager is private; an equivalent one
      new VASSAL.tools.menu.MenuManager() {
        private final VASSAL.tools.menu.MenuBarProxy menuBar = new VASSAL.tools.menu.MenuBarProxy();

        @Override
        public JMenuBar getMenuBarFor(JFrame fc) {
          return (fc instanceof VASSAL.launch.PlayerWindow) ? menuBar.createPeer() : null;
        }

        @Override
        public VASSAL.tools.menu.MenuBarProxy getMenuBarProxyFor(JFrame fc) {
          return (fc instanceof VASSAL.launch.PlayerWindow) ? menuBar : null;
        }
      };
      VASSAL.build.GameModule.init(
        new VASSAL.build.GameModule(new VASSAL.tools.DataArchive(f.getPath())));
      module = VASSAL.build.GameModule.getGameModule();
      VASSAL.i18n.Localization.getInstance().translate();
      result.put("module", module.getGameName());
      result.put("version", module.getGameVersion());
      result.put("engine", VASSAL.Info.getVersion());
    }

    static void load() {
      final List<Object> maps = new ArrayList<>();
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        final Map<String, Object> jm = new LinkedHashMap<>();
        jm.put("name", m.getMapName());
        final List<Object> boards = new ArrayList<>();
        final VASSAL.build.module.map.BoardPicker picker = m.getBoardPicker();
        if (picker != null) {
          for (final String bn : picker.getAllowableBoardNames()) {
            final VASSAL.build.module.map.boardPicker.Board b = picker.getBoard(bn);
            if (b != null) boards.add(describeBoard(b));
          }
        }
        jm.put("boards", boards);
        maps.add(jm);
      }
      result.put("maps", maps);
      result.put("pieces", module.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class).size());
      final List<Object> slots = new ArrayList<>();
      for (final VASSAL.build.widget.PieceSlot s :
           module.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class)) {
        final Map<String, Object> js = new LinkedHashMap<>();
        js.put("name", s.getConfigureName());
        js.put("gpid", s.getGpId());
        final VASSAL.counters.GamePiece p = s.getPiece();
        js.put("type", p == null ? null : p.getType());
        slots.add(js);
      }
      result.put("slots", slots);
    }

    static Map<String, Object> describeBoard(VASSAL.build.module.map.boardPicker.Board b) {
      final Map<String, Object> jb = new LinkedHashMap<>();
      jb.put("name", b.getName());
      final VASSAL.build.module.map.boardPicker.board.MapGrid g = b.getGrid();
      jb.put("grid", g == null ? null : g.getClass().getSimpleName());
      if (g instanceof VASSAL.build.module.map.boardPicker.board.HexGrid) {
        final VASSAL.build.module.map.boardPicker.board.HexGrid h =
          (VASSAL.build.module.map.boardPicker.board.HexGrid) g;
        final Map<String, Object> jg = new LinkedHashMap<>();
        jg.put("dx", h.getHexWidth());
        jg.put("dy", h.getHexSize());
        jg.put("x0", h.getOrigin().x);
        jg.put("y0", h.getOrigin().y);
        jg.put("sideways", h.isSideways());
        jg.put("numbering", h.getGridNumbering() == null ? null
          : h.getGridNumbering().getClass().getSimpleName());
        jb.put("hex", jg);
      }
      final Rectangle r = b.bounds();
      jb.put("bounds", List.of(r.x, r.y, r.width, r.height));
      return jb;
    }

    /** Put the default boards on every map, as starting a game would (no dialogs). */
    static void setUpBoards() {
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        final VASSAL.build.module.map.BoardPicker picker = m.getBoardPicker();
        if (picker == null) continue;
        picker.setup(true);
        if (m.getBoards().isEmpty()) {
          final String[] names = picker.getAllowableBoardNames();
          if (names.length > 0) {
            final VASSAL.build.module.map.boardPicker.Board b = picker.getBoard(names[0]);
            if (b != null) m.setBoards(List.of(b));
          }
        }
      }
    }

    static void where(Path pointsFile, String mapName) throws Exception {
      setUpBoards();
      VASSAL.build.module.Map map = null;
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        if (mapName == null || mapName.equals(m.getMapName())) {
          map = m;
          break;
        }
      }
      if (map == null) throw new IllegalArgumentException("no map " + (mapName == null ? "at all" : mapName));
      result.put("map", map.getMapName());
      final List<Object> boards = new ArrayList<>();
      for (final VASSAL.build.module.map.boardPicker.Board b : map.getBoards()) {
        boards.add(describeBoard(b));
      }
      result.put("boards", boards);
      final List<Object> out = new ArrayList<>();
      for (final Point p : readPoints(pointsFile)) {
        final Map<String, Object> jp = new LinkedHashMap<>();
        jp.put("point", List.of(p.x, p.y));
        final VASSAL.build.module.map.boardPicker.Board b = map.findBoard(p);
        jp.put("board", b == null ? null : b.getName());
        jp.put("name", b == null ? null : map.locationName(p));
        final Point s = map.snapTo(p);
        jp.put("snap", List.of(s.x, s.y));
        out.add(jp);
      }
      result.put("points", out);
    }

    static List<Point> readPoints(Path f) throws Exception {
      final String s = Files.readString(f, StandardCharsets.UTF_8);
      final Matcher m = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?").matcher(s);
      final List<Double> nums = new ArrayList<>();
      while (m.find()) nums.add(Double.parseDouble(m.group()));
      if (nums.size() % 2 != 0) throw new IllegalArgumentException("odd number of coordinates in " + f);
      final List<Point> pts = new ArrayList<>();
      for (int i = 0; i < nums.size(); i += 2) {
        pts.add(new Point((int) Math.round(nums.get(i)), (int) Math.round(nums.get(i + 1))));
      }
      return pts;
    }

    static void save(Path saveFile) throws Exception {
      final VASSAL.build.module.GameState gs = module.getGameState();
      // no "Start new logfile?" question when the game starts
      module.getPrefs().setValue(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_START, Boolean.FALSE);
      module.getPrefs().setValue(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_END, Boolean.FALSE);
      final VASSAL.command.Command c = gs.decodeSavedGame(saveFile.toFile());
      if (c == null) throw new IllegalStateException("save decoded to no command");
      // What the save holds, command by command, before anything executes
      final List<Object> cmds = new ArrayList<>();
      listCommands(c, cmds);
      result.put("commands", cmds);
      c.execute();
      result.put("gameStarted", gs.isGameStarted());
      final List<Object> pieces = new ArrayList<>();
      for (final VASSAL.counters.GamePiece p : gs.getAllPieces()) {
        if (p instanceof VASSAL.counters.Stack) continue;
        final Map<String, Object> jp = new LinkedHashMap<>();
        jp.put("id", p.getId());
        jp.put("name", p.getName());
        final VASSAL.build.module.Map m = p.getMap();
        jp.put("map", m == null ? null : m.getMapName());
        final Point pos = p.getPosition();
        jp.put("x", pos.x);
        jp.put("y", pos.y);
        final VASSAL.counters.GamePiece inner = VASSAL.counters.Decorator.getInnermost(p);
        if (inner instanceof VASSAL.counters.BasicPiece) {
          final String gpid = ((VASSAL.counters.BasicPiece) inner).getGpId();
          if (gpid != null && !gpid.isEmpty()) jp.put("gpid", gpid);
        }
        jp.put("location", m == null ? null : m.locationName(pos));
        jp.put("type", p.getType());
        pieces.add(jp);
      }
      result.put("pieces", pieces);
      final List<Object> maps = new ArrayList<>();
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        final Map<String, Object> jm = new LinkedHashMap<>();
        jm.put("name", m.getMapName());
        final List<Object> bn = new ArrayList<>();
        for (final VASSAL.build.module.map.boardPicker.Board b : m.getBoards()) bn.add(b.getName());
        jm.put("boards", bn);
        maps.add(jm);
      }
      result.put("maps", maps);
    }

    static void listCommands(VASSAL.command.Command c, List<Object> out) {
      if (!(c instanceof VASSAL.command.NullCommand)) {
        final Map<String, Object> jc = new LinkedHashMap<>();
        jc.put("class", c.getClass().getName());
        if (c instanceof VASSAL.command.AddPiece) {
          final VASSAL.command.AddPiece a = (VASSAL.command.AddPiece) c;
          jc.put("id", a.getTarget() == null ? null : a.getTarget().getId());
          jc.put("state", a.getState());
        }
        out.add(jc);
      }
      for (final VASSAL.command.Command sub : c.getSubCommands()) listCommands(sub, out);
    }
  }

  // ---------------------------------------------------------------- JSON

  static final class Json {
    static void write(StringBuilder sb, Object o) {
      if (o == null) {
        sb.append("null");
      }
      else if (o instanceof Boolean || o instanceof Integer || o instanceof Long) {
        sb.append(o);
      }
      else if (o instanceof Number) {
        final double d = ((Number) o).doubleValue();
        if (Double.isFinite(d)) sb.append(d);
        else sb.append("null");
      }
      else if (o instanceof Map) {
        sb.append('{');
        final Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) o).entrySet().iterator();
        while (it.hasNext()) {
          final Map.Entry<?, ?> e = it.next();
          str(sb, String.valueOf(e.getKey()));
          sb.append(':');
          write(sb, e.getValue());
          if (it.hasNext()) sb.append(',');
        }
        sb.append('}');
      }
      else if (o instanceof Collection) {
        sb.append('[');
        final Iterator<?> it = ((Collection<?>) o).iterator();
        while (it.hasNext()) {
          write(sb, it.next());
          if (it.hasNext()) sb.append(',');
        }
        sb.append(']');
      }
      else {
        str(sb, String.valueOf(o));
      }
    }

    static void str(StringBuilder sb, String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        final char ch = s.charAt(i);
        switch (ch) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (ch < 0x20 || ch > 0x7e) sb.append(String.format("\\u%04x", (int) ch));
          else sb.append(ch);
        }
      }
      sb.append('"');
    }
  }
}
