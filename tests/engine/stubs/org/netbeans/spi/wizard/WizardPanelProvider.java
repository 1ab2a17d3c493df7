/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

public abstract class WizardPanelProvider {
  protected WizardPanelProvider(String title, String singleStep, String singleDescription) { }
  protected WizardPanelProvider(String title, String[] steps, String[] descriptions) { }
  protected WizardPanelProvider(String[] steps, String[] descriptions) { }
  public final Wizard createWizard() { throw Wizard.unsupported(); }
}
