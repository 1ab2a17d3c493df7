/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

import java.awt.Component;
import java.util.Map;
import javax.swing.JPanel;

public class WizardPage extends JPanel {
  private static final long serialVersionUID = 1L;
  public WizardPage(String stepDescription) { }
  protected Object getMapKeyFor(Component c) { return c.getName(); }
  protected void userInputReceived(Component source, Object event) { }
  void maybeUpdateMap(Component c) { }
  void removeFromMap(Object key) { }

  public interface WizardResultProducer {
    Object finish(Map wizardData) throws WizardException;
    boolean cancel(Map settings);
  }

  public abstract static class CustomComponentListener {
    public abstract boolean accept(Component c);
    public abstract void startListeningTo(Component c, CustomComponentNotifier n);
    public abstract void stopListeningTo(Component c);
    public boolean isContainer(Component c) { return false; }
    public Object valueFor(Component c) { return null; }
  }

  public abstract static class CustomComponentNotifier {
    public abstract void userInputReceived(Component c, Object event);
  }
}
