/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JComponent;

public final class Wizard {
  private Wizard() { }
  static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("wizards are not supported by the engine test harness");
  }
  public void addWizardObserver(WizardObserver o) { }
  public void removeWizardObserver(WizardObserver o) { }
  public boolean cancel(Map settings) { return true; }
  public String[] getAllSteps() { return new String[0]; }
  public String getCurrentStep() { return null; }
  public int getForwardNavigationMode() { return 0; }
  public String getLongDescription(String step) { return null; }
  public String getProblem() { return null; }
  public String getStepDescription(String step) { return null; }
  public String getTitle() { return null; }
  public boolean isBusy() { return false; }
  public JComponent navigatingTo(String step, Map settings) { throw unsupported(); }
}
