/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

public final class WizardController {
  public static final int MODE_CAN_CONTINUE = 1;
  public static final int MODE_CAN_FINISH = 2;
  public static final int MODE_CAN_CONTINUE_OR_FINISH = 3;
  private WizardController() { }
  public void setForwardNavigationMode(int mode) { }
  public void setProblem(String problem) { }
}
