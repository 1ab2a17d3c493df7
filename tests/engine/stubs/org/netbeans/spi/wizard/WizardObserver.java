/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

public interface WizardObserver {
  void stepsChanged(Wizard wizard);
  void navigabilityChanged(Wizard wizard);
  void selectionChanged(Wizard wizard);
}
