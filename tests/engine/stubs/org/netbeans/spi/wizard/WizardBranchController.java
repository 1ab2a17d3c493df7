/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

import java.util.Map;

public abstract class WizardBranchController {
  protected WizardBranchController(WizardPanelProvider base) { }
  public final Wizard createWizard() { throw Wizard.unsupported(); }
  protected Wizard getWizardForStep(String step, Map settings) { return null; }
}
