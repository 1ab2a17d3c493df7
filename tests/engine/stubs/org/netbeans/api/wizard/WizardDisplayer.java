/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.api.wizard;

import java.awt.Rectangle;
import java.util.Map;
import javax.swing.Action;
import org.netbeans.spi.wizard.Wizard;

public abstract class WizardDisplayer {
  protected WizardDisplayer() { }
  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("wizards are not supported by the engine test harness");
  }
  public static Object showWizard(Wizard wizard) { throw unsupported(); }
  public static Object showWizard(Wizard wizard, Rectangle r) { throw unsupported(); }
  public static Object showWizard(Wizard wizard, Action help) { throw unsupported(); }
  public static Object showWizard(Wizard wizard, Rectangle r, Action help, Map initialProperties) { throw unsupported(); }
}
