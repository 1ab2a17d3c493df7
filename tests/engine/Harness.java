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
 *   java Harness play  MODULE.vmod SCRIPT.json   (steps as a player: see README)
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
import javax.swing.SwingUtilities;
import javax.swing.JMenuBar;
import javax.swing.JOptionPane;
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
      System.err.println("usage: Harness load|where|save|place|play MODULE.vmod [FILE] [MAP|OUT]");
      System.exit(2);
    }
    final String cmd = args[0];
    result.put("command", cmd);
    result.put("ok", Boolean.FALSE);
    result.put("errors", errors);

    setUpConfAndLogging();
    startWatchdog(cmd);

    if ("play".equals(cmd)) {
      // Steps run on this (main) thread: Robot input must not come from the EDT.
      try {
        if (args.length < 3) throw new IllegalArgumentException("play needs SCRIPT.json");
        Play.onEdt(() -> { Engine.init(args[1]); return null; }, 120);
        Play.run(Path.of(args[2]));
      }
      catch (Throwable t) {
        errors.add("exception: " + stackTrace(t instanceof InvocationTargetException ? t.getCause() : t));
      }
      finish(0);
      return;
    }

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
          case "place":
            if (args.length < 4) throw new IllegalArgumentException("place needs PLACEMENTS.json OUT.vsav");
            Engine.place(Path.of(args[2]), Path.of(args[3]));
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
    final List<String> notes = new ArrayList<>(Play.notes);
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
      // The real Wizard library shows the game set-up wizard (a modal dialog) whenever a
      // game starts with an unfinished GameSetupStep; answer it with its defaults instead.
      final java.lang.reflect.Field ws = VASSAL.build.GameModule.class.getDeclaredField("wizardSupport");
      ws.setAccessible(true);
      ws.set(module, new HeadlessWizard());
      VASSAL.i18n.Localization.getInstance().translate();
      result.put("module", module.getGameName());
      result.put("version", module.getGameVersion());
      result.put("engine", VASSAL.Info.getVersion());
    }

    /**
     * The set-up wizard without its dialog: every unfinished step is finished as if the
     * player pressed Finish on its default controls (a PlayerRoster joins as observer, or
     * as the side a "side" step named);
     * a BoardPicker with no default takes its first board.  Each answer is a note.
     */
    static final class HeadlessWizard extends VASSAL.build.module.WizardSupport {
      @Override
      public void showGameSetupWizard() {
        final Iterator<VASSAL.build.module.GameSetupStep> it =
          VASSAL.build.GameModule.getGameModule().getGameState().getUnfinishedSetupSteps();
        while (it.hasNext()) {
          final VASSAL.build.module.GameSetupStep step = it.next();
          String answer = "its default";
          if (step instanceof VASSAL.build.module.map.BoardPicker) {
            final VASSAL.build.module.map.BoardPicker picker = (VASSAL.build.module.map.BoardPicker) step;
            final String[] names = picker.getAllowableBoardNames();
            if (names.length > 0) {
              new VASSAL.build.module.map.BoardPicker.SetBoards(picker, List.of(picker.getBoard(names[0]))).execute();
              answer = "board " + names[0];
            }
          }
          else {
            step.getControls();
            if (step instanceof VASSAL.build.module.PlayerRoster && Play.side != null) {
              try {
                final java.lang.reflect.Field f =
                  VASSAL.build.module.PlayerRoster.class.getDeclaredField("sideConfig");
                f.setAccessible(true);
                ((VASSAL.configure.Configurer) f.get(step)).setValue(Play.side);
                answer = "side " + Play.side;
              }
              catch (ReflectiveOperationException e) {
                answer = "its default (cannot choose side " + Play.side + ": " + e + ")";
              }
            }
            step.finish();
          }
          Play.notes.add("set-up wizard step '" + step.getStepTitle() + "' answered with " + answer);
        }
      }
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
      VASSAL.build.module.map.boardPicker.board.MapGrid geometric = g;
      if (g instanceof VASSAL.build.module.map.boardPicker.board.ZonedGrid) {
        final VASSAL.build.module.map.boardPicker.board.ZonedGrid zg =
          (VASSAL.build.module.map.boardPicker.board.ZonedGrid) g;
        geometric = zg.getBackgroundGrid();
        jb.put("background", geometric == null ? null : geometric.getClass().getSimpleName());
        int zones = 0;
        final Iterator<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone> it = zg.getZones();
        for (; it.hasNext(); it.next()) zones++;
        jb.put("zones", zones);
      }
      if (geometric instanceof VASSAL.build.module.map.boardPicker.board.HexGrid) {
        final VASSAL.build.module.map.boardPicker.board.HexGrid h =
          (VASSAL.build.module.map.boardPicker.board.HexGrid) geometric;
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

    /**
     * {@code place}: a new game (default boards, no dialogs), then each placement
     * {@code [slotIndex, mapName, x, y]} (the n-th PieceSlot of the module, map coordinates) cloned from its
     * slot and dropped as a player drops it ({@code Map.snapTo}, {@code placeOrMerge}); then
     * {@code GameState.saveGame}.  Answers {@code pieces: [{id, name, map, x, y, location, gpid}]}.
     */
    static void place(Path placementsFile, Path out) throws Exception {
      final VASSAL.build.module.GameState gs = module.getGameState();
      quietPrompts();
      module.setGameFileMode(VASSAL.build.GameModule.GameFileMode.NEW_GAME);
      gs.setup(false);
      gs.setup(true);
      final List<VASSAL.build.widget.PieceSlot> slots =
        new ArrayList<>(module.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class));
      final String text = Files.readString(placementsFile, StandardCharsets.UTF_8);
      final Matcher m = Pattern.compile("\\[\\s*(\\d+)\\s*,\\s*\"([^\"]*)\"\\s*,\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*\\]")
        .matcher(text);
      final List<Object> placed = new ArrayList<>();
      while (m.find()) {
        final VASSAL.build.widget.PieceSlot slot = slots.get(Integer.parseInt(m.group(1)));
        final VASSAL.build.module.Map map = Play.findMap(m.group(2));
        final Point drop = map.snapTo(new Point(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))));
        final VASSAL.counters.GamePiece p = VASSAL.counters.PieceCloner.getInstance().clonePiece(slot.getPiece());
        map.placeOrMerge(p, drop);
        final Map<String, Object> jp = new LinkedHashMap<>();
        jp.put("id", p.getId());
        jp.put("name", p.getName());
        jp.put("map", map.getMapName());
        jp.put("x", p.getPosition().x);
        jp.put("y", p.getPosition().y);
        jp.put("location", map.locationName(p.getPosition()));
        placed.add(jp);
      }
      result.put("pieces", placed);
      gs.saveGame(out.toFile());
      result.put("file", out.toString());
      result.put("bytes", out.toFile().length());
    }

    /** No "start/end a logfile?" questions when a game starts or ends, no comment prompt on save. */
    static void quietPrompts() {
      final VASSAL.build.GameModule g = VASSAL.build.GameModule.getGameModule();
      g.getPrefs().setValue(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_START, Boolean.FALSE);
      g.getPrefs().setValue(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_END, Boolean.FALSE);
      if (g.getPrefs().getOption(VASSAL.build.module.BasicLogger.PROMPT_LOG_COMMENT) != null) {
        g.getPrefs().setValue(VASSAL.build.module.BasicLogger.PROMPT_LOG_COMMENT, Boolean.FALSE);
      }
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
      quietPrompts();
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

  // ---------------------------------------------------------------- play

  /**
   * {@code play}: a script of player actions, run against the real PlayerWindow
   * with a java.awt.Robot.  Steps run on the main thread; engine calls go to the
   * EDT through {@link #onEdt}, which never blocks for ever: a modal dialog is
   * recorded, closed, and the step fails.
   */
  static final class Play {
    static final List<String> notes = new ArrayList<>();
    /** The side the set-up wizard joins (a "side" step sets it); null joins as observer. */
    static String side;
    static final List<Object> steps = java.util.Collections.synchronizedList(new ArrayList<>());
    static java.awt.Robot robot;
    static ScriptedChooser chooser;
    /** Pieces by id as the last step saw them, so a moved/changed piece can be found again. */

    interface EdtCall<T> {
      T call() throws Exception;
    }

    /** Run on the EDT and wait; a dialog that blocks the call is closed after {@code secs}. */
    static <T> T onEdt(EdtCall<T> c, double secs) throws Exception {
      final java.util.concurrent.FutureTask<T> task = new java.util.concurrent.FutureTask<>(c::call);
      SwingUtilities.invokeLater(task);
      try {
        return task.get((long) (secs * 1000), java.util.concurrent.TimeUnit.MILLISECONDS);
      }
      catch (java.util.concurrent.TimeoutException e) {
        final List<String> open = closeDialogs();
        try {
          task.get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        catch (Exception ignored) {
          // still blocked or failed: the step fails anyway
        }
        throw new IllegalStateException("blocked for " + secs + " s; dialogs closed: " + open);
      }
      catch (java.util.concurrent.ExecutionException e) {
        final Throwable cause = e.getCause();
        if (cause instanceof Exception) throw (Exception) cause;
        throw new RuntimeException(cause);
      }
    }

    static <T> T onEdt(EdtCall<T> c) throws Exception {
      return onEdt(c, 30);
    }

    /** Let the EDT and the X server catch up. */
    static void settle(long ms) throws Exception {
      // Robot.waitForIdle() is avoided: under Xvfb its native sync often waits out a timeout
      java.awt.Toolkit.getDefaultToolkit().sync();
      onEdt(() -> null, 10);
      if (ms > 0) Thread.sleep(ms);
      java.awt.Toolkit.getDefaultToolkit().sync();
      onEdt(() -> null, 10);
      onEdt(() -> null, 10);
    }

    /** Visible dialogs: texts recorded, dialogs disposed (a modal one unblocks its caller). */
    static List<String> closeDialogs() {
      final List<String> texts = new ArrayList<>();
      final List<Window> ws = new ArrayList<>();
      for (final Window w : Window.getWindows()) {
        if (w.isShowing() && w instanceof Dialog) ws.add(w);
      }
      for (final Window w : ws) {
        final StringBuilder sb = new StringBuilder();
        sb.append('[').append(((Dialog) w).getTitle()).append("] ");
        collectText(w, sb);
        String text = sb.toString().trim().replaceAll("\\s+", " ");
        if (text.length() > 600) text = text.substring(0, 600) + " ...";
        texts.add(text);
        SwingUtilities.invokeLater(w::dispose);
      }
      return texts;
    }

    @SuppressWarnings("unchecked")
    static void run(Path script) throws Exception {
      final Object parsed = Json.parse(Files.readString(script, StandardCharsets.UTF_8));
      if (!(parsed instanceof List)) throw new IllegalArgumentException("the script must be a JSON list of steps");
      result.put("steps", steps);
      onEdt(() -> {
        final VASSAL.build.GameModule g = VASSAL.build.GameModule.getGameModule();
        Engine.quietPrompts();
        // file dialogs answered by the script (GameModule keeps its chooser in a private field)
        chooser = new ScriptedChooser();
        final java.lang.reflect.Field f = VASSAL.build.GameModule.class.getDeclaredField("fileChooser");
        f.setAccessible(true);
        f.set(g, chooser);
        // as VASSAL.launch.Player does once the module is loaded
        g.getPlayerWindow().setVisible(true);
        return null;
      });
      robot = new java.awt.Robot();
      robot.setAutoDelay(5);
      settle(300);
      noteDialogs(null);
      final List<Object> list = (List<Object>) parsed;
      for (int i = 0; i < list.size(); i++) {
        final Map<String, Object> out = new LinkedHashMap<>();
        final Object o = list.get(i);
        final Map<String, Object> step = o instanceof Map ? (Map<String, Object>) o : new LinkedHashMap<>();
        final String op = String.valueOf(step.get("op"));
        out.put("op", op);
        steps.add(out);
        final long t0 = System.nanoTime();
        try {
          if (!(o instanceof Map)) throw new IllegalArgumentException("a step must be a JSON object");
          doStep(op, step, out, list, i);
          out.put("ok", Boolean.TRUE);
        }
        catch (Throwable t) {
          out.put("ok", Boolean.FALSE);
          String msg = t.getClass().getSimpleName() + ": " + t.getMessage();
          if (!(t instanceof IllegalArgumentException || t instanceof IllegalStateException)) {
            msg = stackTrace(t);
          }
          out.put("error", msg);
          errors.add("step " + i + " (" + op + "): " + msg);
        }
        try {
          settle(50);
        }
        catch (Exception e) {
          // reported by the dialog check below
        }
        noteDialogs(out);
        out.put("seconds", Math.round((System.nanoTime() - t0) / 1e6) / 1000.0);
      }
    }

    /** Dialogs left open by a step: the snapshot's version warning is a note, anything else an error. */
    static void noteDialogs(Map<String, Object> out) {
      final List<String> open = closeDialogs();
      final List<String> bad = new ArrayList<>();
      for (final String d : open) {
        if (isSnapshotVersionWarning(d)) notes.add("ignored: " + d);
        else bad.add(d);
      }
      if (bad.isEmpty()) return;
      if (out != null) {
        out.put("dialogs", bad);
        out.put("ok", Boolean.FALSE);
        out.putIfAbsent("error", "dialog left open: " + bad.get(0));
      }
      for (final String d : bad) errors.add("dialog" + (out == null ? "" : " after step " + out.get("op")) + ": " + d);
    }

    @SuppressWarnings("unchecked")
    static void doStep(String op, Map<String, Object> st, Map<String, Object> out,
                       List<Object> script, int index) throws Exception {
      switch (op) {
      case "side": Play.side = (String) st.get("name"); out.put("side", Play.side); break;
      case "new": opNew(st, out); break;
      case "load": opLoad(st, out); break;
      case "windows": out.put("windows", onEdt(Play::windows)); break;
      case "pieces": {
        final List<String> props = new ArrayList<>();
        if (st.get("props") instanceof List) for (final Object x : (List<Object>) st.get("props")) props.add(String.valueOf(x));
        final String mapName = (String) st.get("map");
        out.put("pieces", onEdt(() -> pieces(mapName, props)));
        break;
      }
      case "slots": out.put("slots", onEdt(Play::slots)); break;
      case "drag": opDrag(st, out); break;
      case "menu": opMenu(st, out); break;
      case "key": opKey(st, out); break;
      case "zoom": opZoom(st, out); break;
      case "screenshot": opScreenshot(st, out); break;
      case "hover": opHover(st, out); break;
      case "file_menu": opFileMenu(st, out); break;
      case "chat": out.put("chat", onEdt(Play::chatLines)); break;
      case "chart": opChart(st, out); break;
      case "save": {
        final File f = new File(str(st, "file"));
        onEdt(() -> {
          module.getGameState().saveGame(f);
          return null;
        });
        out.put("file", f.getPath());
        out.put("bytes", f.length());
        break;
      }
      case "log_start": opLogStart(st, out, script, index); break;
      case "log_end": opLogEnd(st, out); break;
      case "turn": opTurn(st, out); break;
      case "refresh": opRefresh(st, out); break;
      case "sleep": Thread.sleep((long) (num(st, "seconds", 1) * 1000)); break;
      default: throw new IllegalArgumentException("unknown op " + op);
      }
    }

    static VASSAL.build.GameModule module = null;

    // ------------------------------------------------------------ helpers

    static String str(Map<String, Object> st, String key) {
      final Object v = st.get(key);
      if (v == null) throw new IllegalArgumentException("missing \"" + key + "\"");
      return String.valueOf(v);
    }

    static double num(Map<String, Object> st, String key, double dflt) {
      final Object v = st.get(key);
      return v instanceof Number ? ((Number) v).doubleValue() : dflt;
    }

    @SuppressWarnings("unchecked")
    static Point point(Map<String, Object> st, String key) {
      final Object v = st.get(key);
      if (!(v instanceof List) || ((List<Object>) v).size() != 2) {
        throw new IllegalArgumentException("\"" + key + "\" must be [x, y]");
      }
      final List<Object> l = (List<Object>) v;
      return new Point((int) Math.round(((Number) l.get(0)).doubleValue()),
                       (int) Math.round(((Number) l.get(1)).doubleValue()));
    }

    static VASSAL.build.module.Map findMap(String name) {
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        if (name == null || name.equals(m.getMapName())) return m;
      }
      throw new IllegalArgumentException("no map " + (name == null ? "at all" : "named " + name));
    }

    static javax.swing.JScrollPane scrollOf(VASSAL.build.module.Map m) {
      return (javax.swing.JScrollPane) SwingUtilities.getAncestorOfClass(javax.swing.JScrollPane.class, m.getView());
    }

    static Object field(Object target, Class<?> cls, String name) throws Exception {
      final java.lang.reflect.Field f = cls.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(target);
    }

    static Object call(Object target, Class<?> cls, String name) throws Exception {
      final java.lang.reflect.Method m = cls.getDeclaredMethod(name);
      m.setAccessible(true);
      return m.invoke(target);
    }

    /** Wait until a background load (SwingWorker) is over. */
    static void waitForLoad(double secs) throws Exception {
      final long end = System.nanoTime() + (long) (secs * 1e9);
      while (onEdt(() -> module.getGameState().isLoadingInBackground())) {
        if (System.nanoTime() > end) throw new IllegalStateException("game still loading after " + secs + " s");
        Thread.sleep(50);
      }
      settle(100);
    }

    static int pieceCount() {
      int n = 0;
      for (final VASSAL.counters.GamePiece p : module.getGameState().getAllPieces()) {
        if (!(p instanceof VASSAL.counters.Stack)) n++;
      }
      return n;
    }

    /** Type ids of the decorator chain, outermost first, ending with the BasicPiece's "piece". */
    static List<String> traits(VASSAL.counters.GamePiece p) {
      final List<String> out = new ArrayList<>();
      VASSAL.counters.GamePiece q = p;
      while (q instanceof VASSAL.counters.Decorator) {
        final String t = ((VASSAL.counters.Decorator) q).myGetType();
        final int semi = t.indexOf(';');
        out.add(semi < 0 ? t : t.substring(0, semi));
        q = ((VASSAL.counters.Decorator) q).getInner();
      }
      if (q != null) {
        final String t = q.getType();
        final int semi = t.indexOf(';');
        out.add(semi < 0 ? t : t.substring(0, semi));
      }
      return out;
    }

    static List<String> menuTexts(javax.swing.JPopupMenu popup) {
      final List<String> out = new ArrayList<>();
      flatten(popup, "", out);
      return out;
    }

    /** The items a player sees: hidden ones (the engine hides its New Game item for a module's scenarios) left out. */
    static void flatten(javax.swing.JPopupMenu menu, String prefix, List<String> out) {
      for (final Component c : menu.getComponents()) {
        if (!c.isVisible()) continue;
        if (c instanceof javax.swing.JMenu) {
          final javax.swing.JMenu sub = (javax.swing.JMenu) c;
          flatten(sub.getPopupMenu(), prefix + sub.getText() + " > ", out);
        }
        else if (c instanceof javax.swing.JMenuItem) {
          out.add(prefix + ((javax.swing.JMenuItem) c).getText());
        }
      }
    }

    static Map<String, Object> describe(VASSAL.counters.GamePiece p, List<String> props, boolean full) {
      final Map<String, Object> jp = new LinkedHashMap<>();
      jp.put("id", p.getId());
      jp.put("name", p.getName());
      final VASSAL.build.module.Map m = p.getMap();
      jp.put("map", m == null ? null : m.getMapName());
      final Point pos = p.getPosition();
      jp.put("x", pos.x);
      jp.put("y", pos.y);
      jp.put("locationName", m == null ? null : m.locationName(pos));
      final VASSAL.counters.Stack s = p.getParent();
      jp.put("stack", s == null ? null : s.getId());
      jp.put("stackIndex", s == null ? null : s.indexOf(p));
      final VASSAL.counters.GamePiece inner = VASSAL.counters.Decorator.getInnermost(p);
      jp.put("gpid", inner instanceof VASSAL.counters.BasicPiece ? ((VASSAL.counters.BasicPiece) inner).getGpId() : null);
      if (full) {
        jp.put("traits", traits(p));
        final Map<String, Object> pv = new LinkedHashMap<>();
        for (final String k : props) {
          final Object v = p.getProperty(k);
          pv.put(k, v == null ? null : String.valueOf(v));
        }
        jp.put("properties", pv);
        jp.put("obscured", Boolean.TRUE.equals(p.getProperty(VASSAL.counters.Properties.OBSCURED_TO_ME)));
        jp.put("menu", menuTexts(VASSAL.build.module.map.MenuDisplayer.createPopup(p)));
        jp.put("selected", Boolean.TRUE.equals(p.getProperty(VASSAL.counters.Properties.SELECTED)));
      }
      jp.put("state", p.getState());
      return jp;
    }

    static List<Object> pieces(String mapName, List<String> props) {
      final List<Object> out = new ArrayList<>();
      for (final VASSAL.counters.GamePiece p : module.getGameState().getAllPieces()) {
        if (p instanceof VASSAL.counters.Stack) continue;
        if (mapName != null && (p.getMap() == null || !mapName.equals(p.getMap().getMapName()))) continue;
        out.add(describe(p, props, true));
      }
      return out;
    }

    static List<Object> slots() {
      final List<Object> out = new ArrayList<>();
      for (final VASSAL.build.widget.PieceSlot s : module.getAllDescendantComponentsOf(VASSAL.build.widget.PieceSlot.class)) {
        final Map<String, Object> js = new LinkedHashMap<>();
        js.put("name", s.getConfigureName());
        js.put("gpid", s.getGpId());
        final VASSAL.counters.GamePiece p = s.getPiece();
        js.put("traits", p == null ? null : traits(p));
        js.put("menu", p == null ? null : menuTexts(VASSAL.build.module.map.MenuDisplayer.createPopup(p)));
        out.add(js);
      }
      return out;
    }

    static Map<String, Object> windows() {
      final Map<String, Object> out = new LinkedHashMap<>();
      final VASSAL.launch.PlayerWindow pw = module.getPlayerWindow();
      out.put("playerWindow", Map.of("visible", pw.isVisible(), "showing", pw.isShowing(),
        "size", List.of(pw.getWidth(), pw.getHeight())));
      final List<Object> maps = new ArrayList<>();
      for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
        final Map<String, Object> jm = new LinkedHashMap<>();
        jm.put("name", m.getMapName());
        final JComponentView v = new JComponentView(m);
        jm.put("showing", v.view.isShowing());
        jm.put("docked", SwingUtilities.getWindowAncestor(v.view) == pw);
        final Window w = SwingUtilities.getWindowAncestor(v.view);
        jm.put("window", w == null ? null : w.getClass().getSimpleName());
        final javax.swing.JScrollPane sp = scrollOf(m);
        final java.awt.Dimension ext = sp == null ? null : sp.getViewport().getExtentSize();
        jm.put("viewport", ext == null ? null : List.of(ext.width, ext.height));
        jm.put("zoom", m.getZoom());
        final List<Object> bn = new ArrayList<>();
        for (final VASSAL.build.module.map.boardPicker.Board b : m.getBoards()) bn.add(b.getName());
        jm.put("boards", bn);
        maps.add(jm);
      }
      out.put("maps", maps);
      return out;
    }

    static final class JComponentView {
      final javax.swing.JComponent view;

      JComponentView(VASSAL.build.module.Map m) {
        view = m.getView();
      }
    }

    // ------------------------------------------------------------ game start / load

    static void opNew(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final Object setupName = st.get("setup");
      final VASSAL.build.module.GameState gs = module.getGameState();
      if (setupName != null) {
        final VASSAL.build.module.PredefinedSetup ps = onEdt(() -> {
          final List<String> names = new ArrayList<>();
          for (final VASSAL.build.module.PredefinedSetup s :
               module.getAllDescendantComponentsOf(VASSAL.build.module.PredefinedSetup.class)) {
            final String n = s.getAttributeValueString(VASSAL.build.module.PredefinedSetup.NAME);
            names.add(n);
            if (setupName.equals(n)) return s;
          }
          throw new IllegalArgumentException("no PredefinedSetup named " + setupName + " (there are " + names + ")");
        });
        out.put("setup", String.valueOf(setupName));
        out.put("useFile", ps.isUseFile());
        onEdt(() -> {
          if (gs.isGameStarted()) {
            gs.setModified(false); // no "save the game?" question
            gs.closeGame();
          }
          ps.launch(); // what its File > New Game menu item does
          return null;
        });
        waitForLoad(60);
      }
      else {
        onEdt(() -> {
          if (gs.isGameStarted()) gs.setModified(false);
          module.setGameFileMode(VASSAL.build.GameModule.GameFileMode.NEW_GAME);
          gs.setup(false);
          // a picker without a default board: the harness's HeadlessWizard takes its first board
          gs.setup(true); // what File > New Game does
          return null;
        });
        settle(200);
      }
      out.put("gameStarted", onEdt(gs::isGameStarted));
      out.put("pieces", onEdt(Play::pieceCount));
    }

    static void opLoad(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final File f = new File(str(st, "file"));
      if (!f.isFile()) throw new IllegalArgumentException("no such save: " + f);
      final VASSAL.build.module.GameState gs = module.getGameState();
      onEdt(() -> {
        if (gs.isGameStarted()) gs.setModified(false);
        chooser.answer(f);
        gs.loadGame(false); // File > Load Game, the chooser answering f
        return null;
      });
      waitForLoad(60);
      out.put("file", f.getPath());
      out.put("gameStarted", onEdt(gs::isGameStarted));
      out.put("pieces", onEdt(Play::pieceCount));
    }

    // ------------------------------------------------------------ mouse and keys

    /** Screen point of a map point, after scrolling so that all the given map points are in view. */
    static Point[] toScreen(VASSAL.build.module.Map m, Point... pts) throws Exception {
      return onEdt(() -> {
        final javax.swing.JComponent v = m.getView();
        if (!v.isShowing()) throw new IllegalStateException("map " + m.getMapName() + " is not showing");
        if (!allVisible(m, 100, pts)) {
          int sx = 0;
          int sy = 0;
          for (final Point p : pts) {
            sx += p.x;
            sy += p.y;
          }
          m.centerAt(new Point(sx / pts.length, sy / pts.length));
          final javax.swing.JScrollPane sp = scrollOf(m);
          if (sp != null) sp.validate();
          if (!allVisible(m, 4, pts)) throw new IllegalArgumentException("points do not fit in one view of the map");
        }
        final Point on = v.getLocationOnScreen();
        final Point[] out = new Point[pts.length];
        for (int i = 0; i < pts.length; i++) {
          final Point c = m.mapToComponent(pts[i]);
          out[i] = new Point(on.x + c.x, on.y + c.y);
        }
        return out;
      });
    }

    /**
     * Whether every point is in the map's view, ``margin`` pixels clear of its edges (a drag that nears
     * an edge makes VASSAL scroll the map under the mouse, so drags first centre what they can).
     */
    static boolean allVisible(VASSAL.build.module.Map m, int margin, Point... pts) {
      final Rectangle vis = m.getView().getVisibleRect();
      vis.grow(-Math.min(margin, vis.width / 4), -Math.min(margin, vis.height / 4));
      for (final Point p : pts) {
        if (!vis.contains(m.mapToComponent(p))) return false;
      }
      return true;
    }

    static VASSAL.counters.GamePiece pieceAt(VASSAL.build.module.Map m, Point p) throws Exception {
      return onEdt(() -> m.findPiece(p, VASSAL.counters.PieceFinder.PIECE_IN_STACK));
    }

    static VASSAL.counters.GamePiece byId(String id) throws Exception {
      return onEdt(() -> module.getGameState().getPieceForId(id));
    }

    static Map<String, Object> brief(VASSAL.counters.GamePiece p, List<String> props) throws Exception {
      return onEdt(() -> describe(p, props, false));
    }

    @SuppressWarnings("unchecked")
    static List<String> propsOf(Map<String, Object> st) {
      final List<String> props = new ArrayList<>();
      if (st.get("props") instanceof List) for (final Object x : (List<Object>) st.get("props")) props.add(String.valueOf(x));
      return props;
    }

    static Map<String, Object> withProps(VASSAL.counters.GamePiece p, List<String> props) throws Exception {
      return onEdt(() -> {
        final Map<String, Object> d = describe(p, props, false);
        final Map<String, Object> pv = new LinkedHashMap<>();
        for (final String k : props) {
          final Object v = p.getProperty(k);
          pv.put(k, v == null ? null : String.valueOf(v));
        }
        d.put("properties", pv);
        return d;
      });
    }

    static void opDrag(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.Map m = findMap((String) st.get("map"));
      final Point from = point(st, "from");
      final Point to = point(st, "to");
      final VASSAL.counters.GamePiece before = pieceAt(m, from);
      if (before == null) throw new IllegalArgumentException("no piece at " + from);
      final Map<String, Object> b0 = brief(before, List.of());
      out.put("piece", b0);
      final String id = before.getId();
      final Point[] s = toScreen(m, from, to);
      settle(100);
      robot.mouseMove(s[0].x, s[0].y);
      settle(100);
      robot.mousePress(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
      settle(150);
      final int n = 24;
      for (int i = 1; i <= n; i++) {
        robot.mouseMove(s[0].x + (s[1].x - s[0].x) * i / n, s[0].y + (s[1].y - s[0].y) * i / n);
        Thread.sleep(25);
      }
      settle(200);
      robot.mouseMove(s[1].x, s[1].y);
      settle(100);
      robot.mouseRelease(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
      settle(400);
      final VASSAL.counters.GamePiece after = byId(id);
      if (after == null) throw new IllegalStateException("piece " + id + " is gone after the drag");
      final Map<String, Object> a = brief(after, List.of());
      out.put("after", a);
      out.put("moved", !a.get("x").equals(b0.get("x")) || !a.get("y").equals(b0.get("y"))
        || !String.valueOf(a.get("map")).equals(String.valueOf(b0.get("map"))));
      if (!(Boolean) out.get("moved")) {
        throw new IllegalStateException("the piece did not move (the drag did not reach the engine)");
      }
    }

    static List<javax.swing.JPopupMenu> visiblePopups() {
      final List<javax.swing.JPopupMenu> out = new ArrayList<>();
      for (final Window w : Window.getWindows()) {
        if (w.isShowing()) findPopups(w, out);
      }
      return out;
    }

    static void findPopups(Component c, List<javax.swing.JPopupMenu> out) {
      if (c instanceof javax.swing.JPopupMenu && c.isShowing()) {
        out.add((javax.swing.JPopupMenu) c);
        return;
      }
      if (c instanceof Container) {
        for (final Component k : ((Container) c).getComponents()) findPopups(k, out);
      }
    }

    static void opMenu(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.Map m = findMap((String) st.get("map"));
      final Point at = point(st, "at");
      final VASSAL.counters.GamePiece p = pieceAt(m, at);
      if (p == null) throw new IllegalArgumentException("no piece at " + at);
      final List<String> props = propsOf(st);
      out.put("piece", withProps(p, props));
      final String id = p.getId();
      final Point s = toScreen(m, at)[0];
      robot.mouseMove(s.x, s.y);
      settle(100);
      robot.mousePress(java.awt.event.InputEvent.BUTTON3_DOWN_MASK);
      Thread.sleep(50);
      robot.mouseRelease(java.awt.event.InputEvent.BUTTON3_DOWN_MASK);
      settle(300);
      final List<javax.swing.JPopupMenu> popups = onEdt(Play::visiblePopups);
      if (popups.isEmpty()) throw new IllegalStateException("no popup menu appeared");
      final javax.swing.JPopupMenu popup = popups.get(0);
      final List<String> texts = onEdt(() -> menuTexts(popup));
      out.put("menu", texts);
      final Object choose = st.get("choose");
      if (choose == null) {
        robot.keyPress(java.awt.event.KeyEvent.VK_ESCAPE);
        robot.keyRelease(java.awt.event.KeyEvent.VK_ESCAPE);
        settle(150);
        if (!onEdt(Play::visiblePopups).isEmpty()) throw new IllegalStateException("Escape left the popup open");
        return;
      }
      // "Sub > Item": hover each level, then click the item
      final String[] path = String.valueOf(choose).split(" > ");
      javax.swing.JPopupMenu cur = popup;
      for (int level = 0; level < path.length; level++) {
        final javax.swing.JPopupMenu menu = cur;
        final String want = path[level];
        final javax.swing.JMenuItem item = onEdt(() -> {
          for (final Component c : menu.getComponents()) {
            if (c instanceof javax.swing.JMenuItem && want.equals(((javax.swing.JMenuItem) c).getText())) {
              return (javax.swing.JMenuItem) c;
            }
          }
          return null;
        });
        if (item == null) throw new IllegalArgumentException("no menu item \"" + want + "\" in " + texts);
        final Point c = onEdt(() -> {
          final Point on = item.getLocationOnScreen();
          return new Point(on.x + item.getWidth() / 2, on.y + item.getHeight() / 2);
        });
        robot.mouseMove(c.x, c.y);
        settle(250);
        if (level < path.length - 1) {
          if (!(item instanceof javax.swing.JMenu)) throw new IllegalArgumentException(want + " is not a submenu");
          cur = ((javax.swing.JMenu) item).getPopupMenu();
        }
        else {
          robot.mousePress(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
          Thread.sleep(40);
          robot.mouseRelease(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
          settle(300);
        }
      }
      out.put("chose", String.valueOf(choose));
      final VASSAL.counters.GamePiece after = byId(id);
      out.put("after", after == null ? null : withProps(after, props));
    }

    static void opKey(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.Map m = findMap((String) st.get("map"));
      final Point at = point(st, "at");
      final String keyText = str(st, "key");
      final javax.swing.KeyStroke ks = javax.swing.KeyStroke.getKeyStroke(keyText);
      if (ks == null) throw new IllegalArgumentException("not a KeyStroke: " + keyText);
      final VASSAL.counters.GamePiece p = pieceAt(m, at);
      if (p == null) throw new IllegalArgumentException("no piece at " + at);
      final List<String> props = propsOf(st);
      final String id = p.getId();
      out.put("before", withProps(p, props));
      final Point s = toScreen(m, at)[0];
      robot.mouseMove(s.x, s.y);
      settle(100);
      robot.mousePress(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
      Thread.sleep(40);
      robot.mouseRelease(java.awt.event.InputEvent.BUTTON1_DOWN_MASK);
      settle(250);
      out.put("selected", onEdt(() -> VASSAL.counters.KeyBuffer.getBuffer().contains(p)));
      out.put("focus", onEdt(() -> {
        final Component f = java.awt.KeyboardFocusManager.getCurrentKeyboardFocusManager().getFocusOwner();
        return f == null ? null : f.getClass().getName();
      }));
      final int mods = ks.getModifiers();
      final List<Integer> down = new ArrayList<>();
      if ((mods & java.awt.event.InputEvent.CTRL_DOWN_MASK) != 0) down.add(java.awt.event.KeyEvent.VK_CONTROL);
      if ((mods & java.awt.event.InputEvent.SHIFT_DOWN_MASK) != 0) down.add(java.awt.event.KeyEvent.VK_SHIFT);
      if ((mods & java.awt.event.InputEvent.ALT_DOWN_MASK) != 0) down.add(java.awt.event.KeyEvent.VK_ALT);
      if ((mods & java.awt.event.InputEvent.META_DOWN_MASK) != 0) down.add(java.awt.event.KeyEvent.VK_META);
      for (final int k : down) robot.keyPress(k);
      robot.keyPress(ks.getKeyCode());
      Thread.sleep(30);
      robot.keyRelease(ks.getKeyCode());
      for (int i = down.size() - 1; i >= 0; i--) robot.keyRelease(down.get(i));
      settle(300);
      final VASSAL.counters.GamePiece after = byId(id);
      out.put("after", after == null ? null : withProps(after, props));
      out.put("changed", after == null || !after.getState().equals(((Map<?, ?>) out.get("before")).get("state"))
        || !after.getName().equals(((Map<?, ?>) out.get("before")).get("name")));
    }

    static void opZoom(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.Map m = findMap((String) st.get("map"));
      final String dir = str(st, "dir");
      if (!dir.equals("in") && !dir.equals("out")) throw new IllegalArgumentException("dir must be in or out");
      out.put("before", onEdt(m::getZoom));
      onEdt(() -> {
        final List<VASSAL.build.module.map.Zoomer> zs = m.getComponentsOf(VASSAL.build.module.map.Zoomer.class);
        if (zs.isEmpty()) throw new IllegalStateException("map " + m.getMapName() + " has no Zoomer");
        final javax.swing.AbstractButton b = (javax.swing.AbstractButton) field(zs.get(0),
          VASSAL.build.module.map.Zoomer.class, dir.equals("in") ? "zoomInButton" : "zoomOutButton");
        if (!b.isEnabled()) throw new IllegalStateException("zoom " + dir + " button is disabled (no further level)");
        b.doClick(); // the toolbar button
        return null;
      });
      settle(200);
      out.put("after", onEdt(m::getZoom));
    }

    static void opScreenshot(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final File f = new File(str(st, "file"));
      if (st.get("center") != null) {
        final VASSAL.build.module.Map m = findMap((String) st.get("map"));
        final Point c = point(st, "center");
        onEdt(() -> {
          m.centerAt(c);
          return null;
        });
      }
      final String mapName = (String) st.get("map");
      final java.awt.Window hidden = showMapWindow(mapName);
      settle(300);
      captureWindow(f, mapName, out);
      hideAgain(hidden);
    }

    /** The window of map {@code mapName} shown when it is a hidden window of its own (a map launched from the
     *  toolbar, as a player opens it); that window, or null when nothing had to be shown. */
    static java.awt.Window showMapWindow(String mapName) throws Exception {
      return onEdt(() -> {
        final java.awt.Window w = mapName == null ? null : SwingUtilities.getWindowAncestor(findMap(mapName).getView());
        if (w == null || w.isVisible()) return null;
        w.setVisible(true);
        w.toFront();
        return w;
      });
    }

    /** A window {@link #showMapWindow} showed hidden again, as the player found it. */
    static void hideAgain(java.awt.Window hidden) throws Exception {
      if (hidden == null) return;
      onEdt(() -> {
        hidden.setVisible(false);
        return null;
      });
    }

    /**
     * {@code Robot.createScreenCapture} of the window holding map {@code mapName} (the PlayerWindow for a docked
     * map, or when no map is named) into {@code f}; answers {@code file}, {@code size}.
     */
    static void captureWindow(File f, String mapName, Map<String, Object> out) throws Exception {
      final Rectangle r = onEdt(() -> {
        final java.awt.Window w = mapName == null ? null : SwingUtilities.getWindowAncestor(findMap(mapName).getView());
        final java.awt.Window shown = w != null ? w : module.getPlayerWindow();
        shown.toFront();
        return new Rectangle(shown.getLocationOnScreen(), shown.getSize());
      });
      settle(300);
      final java.awt.image.BufferedImage img = robot.createScreenCapture(r);
      if (f.getParentFile() != null) f.getParentFile().mkdirs();
      javax.imageio.ImageIO.write(img, "png", f);
      out.put("file", f.getPath());
      out.put("size", List.of(img.getWidth(), img.getHeight()));
    }

    /**
     * The mouse brought to map point {@code at} and left there {@code seconds} (default 1.5: past the mouse-over
     * stack viewer's delay), then the PlayerWindow captured to {@code file}: the viewer's text is in the picture.
     * Answers the engine's {@code locationName} and {@code zone} (the Zone's name, {@code $CurrentZone$}) of the point.
     */
    static void opHover(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.Map m = findMap((String) st.get("map"));
      final java.awt.Window hidden = showMapWindow((String) st.get("map"));
      settle(300);
      final Point at = point(st, "at");
      final Point s = toScreen(m, at)[0];
      robot.mouseMove(s.x - 4, s.y - 4);
      settle(100);
      robot.mouseMove(s.x, s.y); // the viewer's timer starts on this move
      Thread.sleep((long) (num(st, "seconds", 1.5) * 1000));
      settle(200);
      out.put("locationName", onEdt(() -> m.locationName(at)));
      out.put("zone", onEdt(() -> {
        final VASSAL.build.module.map.boardPicker.board.mapgrid.Zone z = m.findZone(at);
        return z == null ? null : z.getName();
      }));
      out.putAll(onEdt(() -> viewerShows(m)));
      captureWindow(new File(str(st, "file")), (String) st.get("map"), out);
      hideAgain(hidden);
    }

    /** What the map's mouse-over viewer shows now: {@code viewer} (the names of the pieces it draws, bottom first,
     *  empty when it draws none), {@code viewerText} (whether its text is drawn) and {@code viewerSummary} (the text
     *  it writes above the pieces, worked out as the viewer does: its summary format over the pieces' properties). */
    static Map<String, Object> viewerShows(VASSAL.build.module.Map m) throws Exception {
      final Map<String, Object> out = new LinkedHashMap<>();
      final Class<?> cdv = VASSAL.build.module.map.CounterDetailViewer.class;
      for (final VASSAL.build.module.map.CounterDetailViewer v : m.getComponentsOf(VASSAL.build.module.map.CounterDetailViewer.class)) {
        @SuppressWarnings("unchecked")
        final List<VASSAL.counters.GamePiece> shown = (List<VASSAL.counters.GamePiece>) field(v, cdv, "displayablePieces");
        final List<String> names = new ArrayList<>();
        if (shown != null && Boolean.TRUE.equals(field(v, cdv, "graphicsVisible"))) {
          for (final VASSAL.counters.GamePiece p : shown) names.add(p.getName());
        }
        out.put("viewer", names);
        out.put("viewerText", field(v, cdv, "textVisible"));
        if (shown != null && !shown.isEmpty()) {
          // a copy of the viewer's format, read as the engine reads it (the pieces' properties, the first's for
          // $LocationName$): setting a property on the viewer's own format would change what it draws next
          final String format = ((VASSAL.tools.FormattedString) field(v, cdv, "summaryReportFormat")).getFormat();
          out.put("viewerSummary", new VASSAL.tools.FormattedString(format)
            .getText(new VASSAL.build.module.properties.SumProperties(shown)));
        }
      }
      return out;
    }

    /** The chat as a player reads it: the Chatter's conversation as plain text, one entry a line (blank ones too). */
    static List<String> chatLines() throws Exception {
      final javax.swing.text.Document d =
        (javax.swing.text.Document) field(module.getChatter(), VASSAL.build.module.Chatter.class, "doc");
      return List.of(d.getText(0, d.getLength()).split("\n", -1));
    }

    /**
     * The PlayerWindow's File menu as the engine built it: {@code menu}, its item texts ({@code "Sub > Item"} in
     * submenus); with {@code choose} (such a text), that item clicked ({@code doClick()}, its real action) and a game
     * it loads waited for.
     */
    static void opFileMenu(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final javax.swing.JPopupMenu file = onEdt(() -> module.getPlayerWindow().getJMenuBar().getMenu(0).getPopupMenu());
      out.put("menu", onEdt(() -> menuTexts(file)));
      final Object choose = st.get("choose");
      if (choose == null) return;
      final VASSAL.build.module.GameState gs = module.getGameState();
      onEdt(() -> {
        javax.swing.MenuElement cur = file;
        for (final String want : String.valueOf(choose).split(" > ")) {
          javax.swing.MenuElement next = null;
          for (final javax.swing.MenuElement e : cur.getSubElements()) {
            if (e instanceof javax.swing.JMenuItem && want.equals(((javax.swing.JMenuItem) e).getText())) next = e;
          }
          if (next == null) throw new IllegalArgumentException("no File menu item " + want + " in " + choose);
          cur = next instanceof javax.swing.JMenu ? ((javax.swing.JMenu) next).getPopupMenu() : next;
        }
        if (gs.isGameStarted()) gs.setModified(false); // no "save the game?" question
        ((javax.swing.JMenuItem) cur).doClick();
        return null;
      });
      waitForLoad(60);
      out.put("chose", String.valueOf(choose));
      out.put("gameStarted", onEdt(gs::isGameStarted));
      out.put("pieces", onEdt(Play::pieceCount));
    }

    /** The Charts window opened from its toolbar button, tab {@code tab} (its title; default the first) shown, captured, closed. */
    static void opChart(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final VASSAL.build.module.ChartWindow cw = module.getComponentsOf(VASSAL.build.module.ChartWindow.class).get(0);
      final java.lang.reflect.Field launchField = VASSAL.build.module.ChartWindow.class.getDeclaredField("launch");
      final java.lang.reflect.Field frameField = VASSAL.build.module.ChartWindow.class.getDeclaredField("frame");
      launchField.setAccessible(true);
      frameField.setAccessible(true);
      final javax.swing.JDialog frame = (javax.swing.JDialog) frameField.get(cw);
      onEdt(() -> {
        if (!frame.isVisible()) ((AbstractButton) launchField.get(cw)).doClick();
        return null;
      });
      settle(500);
      final Object tab = st.get("tab");
      final Map<String, Object> info = onEdt(() -> {
        final javax.swing.JTabbedPane tabs = findTabs(frame.getContentPane());
        final Map<String, Object> m = new LinkedHashMap<>();
        if (tabs != null) {
          final List<String> titles = new ArrayList<>();
          for (int i = 0; i < tabs.getTabCount(); i++) titles.add(tabs.getTitleAt(i));
          if (tab != null) tabs.setSelectedIndex(titles.indexOf(String.valueOf(tab)));
          m.put("tabs", titles);
          m.put("tabRuns", tabs.getTabRunCount());
        }
        m.put("size", List.of(frame.getWidth(), frame.getHeight()));
        m.put("title", frame.getTitle());
        return m;
      });
      settle(500);
      info.putAll(onEdt(() -> scrolled(findTabs(frame.getContentPane()))));
      final Rectangle r = onEdt(() -> new Rectangle(frame.getLocationOnScreen(), frame.getSize()));
      final File f = new File(str(st, "file"));
      if (f.getParentFile() != null) f.getParentFile().mkdirs();
      javax.imageio.ImageIO.write(robot.createScreenCapture(r), "png", f);
      onEdt(() -> {
        frame.setVisible(false);   // closed again, as a player closes it (an open window counts as a dialog left open)
        return null;
      });
      out.putAll(info);
      out.put("file", f.getPath());
    }

    /** Where the selected tab's page is scrolled to: {@code view} (the top left point shown), {@code extent}
     *  (the part shown) and {@code page} (the whole page), each [x, y] or [w, h]. */
    static Map<String, Object> scrolled(javax.swing.JTabbedPane tabs) {
      final Map<String, Object> m = new LinkedHashMap<>();
      final Component sel = tabs == null ? null : tabs.getSelectedComponent();
      final javax.swing.JScrollPane sp = sel == null ? null
        : sel instanceof javax.swing.JScrollPane ? (javax.swing.JScrollPane) sel
        : (javax.swing.JScrollPane) javax.swing.SwingUtilities.getAncestorOfClass(javax.swing.JScrollPane.class, sel);
      if (sp == null) return m;
      final javax.swing.JViewport vp = sp.getViewport();
      m.put("view", List.of(vp.getViewPosition().x, vp.getViewPosition().y));
      m.put("extent", List.of(vp.getExtentSize().width, vp.getExtentSize().height));
      m.put("page", List.of(vp.getViewSize().width, vp.getViewSize().height));
      return m;
    }

    static javax.swing.JTabbedPane findTabs(Component c) {
      if (c instanceof javax.swing.JTabbedPane) return (javax.swing.JTabbedPane) c;
      if (c instanceof Container) {
        for (Component k : ((Container) c).getComponents()) {
          final javax.swing.JTabbedPane t = findTabs(k);
          if (t != null) return t;
        }
      }
      return null;
    }

    // ------------------------------------------------------------ log, turn, refresh

    static VASSAL.build.module.BasicLogger logger() {
      final VASSAL.command.Logger l = module.getLogger();
      if (!(l instanceof VASSAL.build.module.BasicLogger)) throw new IllegalStateException("the module's logger is no BasicLogger");
      return (VASSAL.build.module.BasicLogger) l;
    }

    static void opLogStart(Map<String, Object> st, Map<String, Object> out, List<Object> script, int index) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      // BasicLogger asks for the file when logging begins: the step's own "file", else the next log_end's
      Object file = st.get("file");
      for (int j = index + 1; file == null && j < script.size(); j++) {
        if (script.get(j) instanceof Map && "log_end".equals(((Map<?, ?>) script.get(j)).get("op"))) {
          file = ((Map<?, ?>) script.get(j)).get("file");
        }
      }
      if (file == null) throw new IllegalArgumentException("log_start needs a \"file\" or a later log_end with one");
      final File f = new File(String.valueOf(file));
      onEdt(() -> {
        final VASSAL.build.module.BasicLogger bl = logger();
        final javax.swing.Action begin = (javax.swing.Action) field(bl, VASSAL.build.module.BasicLogger.class, "newLogAction");
        if (!begin.isEnabled()) throw new IllegalStateException("File > Begin Logfile is disabled (logging already?)");
        chooser.answer(f);
        begin.actionPerformed(new java.awt.event.ActionEvent(module.getPlayerWindow(), 0, "begin"));
        if (!bl.isLogging()) throw new IllegalStateException("logging did not begin");
        return null;
      });
      out.put("file", f.getPath());
    }

    static void opLogEnd(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final File f = new File(str(st, "file"));
      onEdt(() -> {
        final VASSAL.build.module.BasicLogger bl = logger();
        if (!bl.isLogging()) throw new IllegalStateException("not logging (no log_start?)");
        final java.lang.reflect.Field of = VASSAL.build.module.BasicLogger.class.getDeclaredField("outputFile");
        of.setAccessible(true);
        final File chosen = (File) of.get(bl);
        if (!f.getAbsoluteFile().equals(chosen.getAbsoluteFile())) of.set(bl, f); // write where this step says
        @SuppressWarnings("unchecked")
        final List<Object> logged = (List<Object>) field(bl, VASSAL.build.module.BasicLogger.class, "logOutput");
        out.put("commands", logged.size());
        final javax.swing.Action end = (javax.swing.Action) field(bl, VASSAL.build.module.BasicLogger.class, "endLogAction");
        end.actionPerformed(new java.awt.event.ActionEvent(module.getPlayerWindow(), 0, "end"));
        return null;
      });
      out.put("file", f.getPath());
      out.put("bytes", f.length());
      if (!f.isFile()) throw new IllegalStateException("no log written (BasicLogger writes nothing when no command was logged)");
    }

    static void opTurn(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      final boolean next = Boolean.TRUE.equals(st.get("next"));
      out.put("trackers", onEdt(() -> {
        final List<Object> l = new ArrayList<>();
        for (final VASSAL.build.module.turn.TurnTracker t :
             module.getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnTracker.class)) {
          final Map<String, Object> jt = new LinkedHashMap<>();
          jt.put("id", t.getId());
          jt.put("name", t.getConfigureName());
          jt.put("before", t.getState());
          jt.put("turn", call(t, VASSAL.build.module.turn.TurnTracker.class, "getTurnString"));
          if (next) {
            final Object widget = field(t, VASSAL.build.module.turn.TurnTracker.class, "turnWidget");
            final javax.swing.AbstractButton b = (javax.swing.AbstractButton) field(widget, widget.getClass(), "nextButton");
            b.doClick(); // the widget's Next button
            jt.put("state", t.getState());
            jt.put("turnAfter", call(t, VASSAL.build.module.turn.TurnTracker.class, "getTurnString"));
          }
          l.add(jt);
        }
        return l;
      }));
    }

    static void opRefresh(Map<String, Object> st, Map<String, Object> out) throws Exception {
      module = VASSAL.build.GameModule.getGameModule();
      out.put("before", onEdt(Play::pieceCount));
      onEdt(() -> {
        // RefreshDialog.run() with its default options (only "delete pieces with no map")
        final VASSAL.build.module.GameRefresher r = new VASSAL.build.module.GameRefresher(module);
        final java.util.Set<String> options = new java.util.HashSet<>();
        options.add("DeleteNoMap");
        final VASSAL.command.Command c = new VASSAL.command.NullCommand();
        r.execute(options, c);
        module.sendAndLog(c);
        return null;
      });
      settle(100);
      out.put("after", onEdt(Play::pieceCount));
    }

    /** File dialogs answered by the script: the next open/save dialog gets {@link #answer}'s file. */
    static final class ScriptedChooser extends VASSAL.tools.filechooser.FileChooser {
      private File next;
      private File selected;
      private File dir;
      private String title = "";

      ScriptedChooser() {
        super(null, null);
      }

      void answer(File f) {
        next = f.getAbsoluteFile();
        selected = next;
      }

      private int show() {
        if (next == null) {
          errors.add("harness: the engine asked for a file the script did not give");
          return CANCEL_OPTION;
        }
        selected = next;
        next = null;
        return APPROVE_OPTION;
      }

      @Override public File getCurrentDirectory() { return dir; }
      @Override public void setCurrentDirectory(File d) { dir = d; }
      @Override public void rescanCurrentDirectory() { }
      @Override public File getSelectedFile() { return selected; }
      @Override public void setSelectedFile(File f) { selected = f; }
      @Override public String getDialogTitle() { return title; }
      @Override public void setDialogTitle(String t) { title = t; }
      @Override public int showOpenDialog(Component parent) { return show(); }
      @Override public int showSaveDialog(Component parent) { return show(); }
      @Override public VASSAL.tools.filechooser.FileFilter getFileFilter() { return null; }
      @Override public void setFileFilter(VASSAL.tools.filechooser.FileFilter f) { }
      @Override public void addChoosableFileFilter(VASSAL.tools.filechooser.FileFilter f) { }
      @Override public boolean removeChoosableFileFilter(VASSAL.tools.filechooser.FileFilter f) { return true; }
      @Override public void resetChoosableFileFilters() { }
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

    /** A small JSON reader for play scripts: objects, lists, strings, numbers, booleans, null. */
    static Object parse(String text) {
      final int[] pos = {0};
      final Object v = value(text, pos);
      skip(text, pos);
      if (pos[0] != text.length()) throw new IllegalArgumentException("trailing text in JSON at " + pos[0]);
      return v;
    }

    private static void skip(String s, int[] pos) {
      while (pos[0] < s.length() && Character.isWhitespace(s.charAt(pos[0]))) pos[0]++;
    }

    private static Object value(String s, int[] pos) {
      skip(s, pos);
      if (pos[0] >= s.length()) throw new IllegalArgumentException("JSON ends early");
      final char c = s.charAt(pos[0]);
      if (c == '{') {
        final Map<String, Object> m = new LinkedHashMap<>();
        pos[0]++;
        skip(s, pos);
        if (s.charAt(pos[0]) == '}') {
          pos[0]++;
          return m;
        }
        while (true) {
          skip(s, pos);
          final Object k = value(s, pos);
          if (!(k instanceof String)) throw new IllegalArgumentException("JSON key is no string at " + pos[0]);
          skip(s, pos);
          expect(s, pos, ':');
          m.put((String) k, value(s, pos));
          skip(s, pos);
          if (s.charAt(pos[0]) == ',') {
            pos[0]++;
            continue;
          }
          expect(s, pos, '}');
          return m;
        }
      }
      if (c == '[') {
        final List<Object> l = new ArrayList<>();
        pos[0]++;
        skip(s, pos);
        if (s.charAt(pos[0]) == ']') {
          pos[0]++;
          return l;
        }
        while (true) {
          l.add(value(s, pos));
          skip(s, pos);
          if (s.charAt(pos[0]) == ',') {
            pos[0]++;
            continue;
          }
          expect(s, pos, ']');
          return l;
        }
      }
      if (c == '"') {
        final StringBuilder sb = new StringBuilder();
        pos[0]++;
        while (true) {
          final char ch = s.charAt(pos[0]++);
          if (ch == '"') return sb.toString();
          if (ch != '\\') {
            sb.append(ch);
            continue;
          }
          final char e = s.charAt(pos[0]++);
          switch (e) {
          case 'n': sb.append('\n'); break;
          case 't': sb.append('\t'); break;
          case 'r': sb.append('\r'); break;
          case 'b': sb.append('\b'); break;
          case 'f': sb.append('\f'); break;
          case 'u':
            sb.append((char) Integer.parseInt(s.substring(pos[0], pos[0] + 4), 16));
            pos[0] += 4;
            break;
          default: sb.append(e);
          }
        }
      }
      for (final String word : new String[] {"true", "false", "null"}) {
        if (s.startsWith(word, pos[0])) {
          pos[0] += word.length();
          return "null".equals(word) ? null : Boolean.valueOf(word);
        }
      }
      final Matcher m = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?").matcher(s);
      if (m.find(pos[0]) && m.start() == pos[0]) {
        pos[0] = m.end();
        final String num = m.group();
        if (m.group(1) == null && m.group(2) == null) {
          final long lv = Long.parseLong(num);
          if (lv == (int) lv) return (int) lv;
          return lv;
        }
        return Double.parseDouble(num);
      }
      throw new IllegalArgumentException("bad JSON at " + pos[0]);
    }

    private static void expect(String s, int[] pos, char c) {
      if (pos[0] >= s.length() || s.charAt(pos[0]) != c) {
        throw new IllegalArgumentException("JSON: expected '" + c + "' at " + pos[0]);
      }
      pos[0]++;
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
