/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

import java.util.Map;

public abstract class DeferredWizardResult {
  public DeferredWizardResult() { }
  public DeferredWizardResult(boolean canAbort) { }
  public abstract void start(Map settings, ResultProgressHandle progress);
  public boolean canAbort() { return false; }
  public void abort() { }
  public boolean isUseBusy() { return false; }
}
